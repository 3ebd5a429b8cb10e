#include "model/classad/lexer.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>

namespace cara::classad {
namespace {

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool is_ident(char c) {
  return is_alpha(c) || is_digit(c) || c == '_';
}
bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
bool is_hex(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

}  // namespace

const char* tok_name(Tok t) {
  switch (t) {
    case Tok::End: return "end of input";
    case Tok::Invalid: return "an invalid token";
    case Tok::Integer: return "an integer";
    case Tok::Real: return "a real number";
    case Tok::String: return "a string";
    case Tok::Identifier: return "a name";
    case Tok::QuotedIdentifier: return "a quoted name";
    case Tok::True: return "'true'";
    case Tok::False: return "'false'";
    case Tok::Undefined: return "'undefined'";
    case Tok::ErrorLit: return "'error'";
    case Tok::LParen: return "'('";
    case Tok::RParen: return "')'";
    case Tok::LBrace: return "'{'";
    case Tok::RBrace: return "'}'";
    case Tok::LBox: return "'['";
    case Tok::RBox: return "']'";
    case Tok::Comma: return "','";
    case Tok::Semicolon: return "';'";
    case Tok::Dot: return "'.'";
    case Tok::Assign: return "'='";
    case Tok::Question: return "'?'";
    case Tok::Colon: return "':'";
    case Tok::Plus: return "'+'";
    case Tok::Minus: return "'-'";
    case Tok::Star: return "'*'";
    case Tok::Slash: return "'/'";
    case Tok::Percent: return "'%'";
    case Tok::Shl: return "'<<'";
    case Tok::Shr: return "'>>'";
    case Tok::UShr: return "'>>>'";
    case Tok::Less: return "'<'";
    case Tok::LessEq: return "'<='";
    case Tok::Greater: return "'>'";
    case Tok::GreaterEq: return "'>='";
    case Tok::EqEq: return "'=='";
    case Tok::NotEq: return "'!='";
    case Tok::MetaEq: return "'=?='";
    case Tok::MetaNotEq: return "'=!='";
    case Tok::BitAnd: return "'&'";
    case Tok::BitOr: return "'|'";
    case Tok::BitXor: return "'^'";
    case Tok::BitNot: return "'~'";
    case Tok::Not: return "'!'";
    case Tok::AndAnd: return "'&&'";
    case Tok::OrOr: return "'||'";
  }
  return "?";
}

SourcePosition Lexer::where(std::size_t pos) const {
  SourcePosition at{first_line_, first_column_};
  const std::size_t stop = std::min(pos, src_.size());
  for (std::size_t i = 0; i < stop; ++i) {
    if (src_[i] == '\n') {
      ++at.line;
      at.column = 1;
    } else {
      ++at.column;
    }
  }
  return at;
}

// Returns false (with an Invalid token) for an unterminated /* comment.
bool Lexer::skip_space_and_comments(Token& out) {
  const std::size_t n = src_.size();
  for (;;) {
    while (pos_ < n && is_space(src_[pos_])) ++pos_;
    if (pos_ + 1 >= n || src_[pos_] != '/') return true;
    if (src_[pos_ + 1] == '/') {
      while (pos_ < n && src_[pos_] != '\n') ++pos_;
    } else if (src_[pos_ + 1] == '*') {
      const std::size_t close = src_.find("*/", pos_ + 2);
      if (close == std::string_view::npos) {
        out.kind = Tok::Invalid;
        out.pos = pos_;
        out.problem = "unterminated /* comment";
        pos_ = n;
        return false;
      }
      pos_ = close + 2;
    } else {
      return true;
    }
  }
}

void Lexer::next(Token& out) {
  out.factor = Factor::None;
  if (!skip_space_and_comments(out)) return;
  out.pos = pos_;
  std::size_t start = pos_;
  if (pos_ >= src_.size()) {
    out.kind = Tok::End;
    out.text = {};
    return;
  }
  char c = src_[pos_];
  if (is_alpha(c) || c == '_') {
    word(out);
  } else if (is_digit(c) || (c == '.' && is_digit(peek(1)))) {
    number(out);
  } else if (c == '"' || c == '\'') {
    quoted(out, c);
    if (out.kind != Tok::Invalid) out.kind = (c == '"') ? Tok::String : Tok::QuotedIdentifier;
  } else {
    punct(out);
  }
  out.text = src_.substr(start, pos_ - start);
}

// A name or one of the keywords (case-insensitive): checked by length first,
// since nearly every word is a plain attribute name.
void Lexer::word(Token& out) {
  const std::size_t start = pos_;
  while (pos_ < src_.size() && is_ident(src_[pos_])) ++pos_;
  const std::string_view w = src_.substr(start, pos_ - start);
  out.kind = Tok::Identifier;
  switch (w.size()) {
    case 2:
      if (iequals(w, "is")) out.kind = Tok::MetaEq;
      break;
    case 4:
      if (iequals(w, "true"))
        out.kind = Tok::True;
      else if (iequals(w, "isnt"))
        out.kind = Tok::MetaNotEq;
      break;
    case 5:
      if (iequals(w, "false"))
        out.kind = Tok::False;
      else if (iequals(w, "error"))
        out.kind = Tok::ErrorLit;
      break;
    case 9:
      if (iequals(w, "undefined")) out.kind = Tok::Undefined;
      break;
    default: break;
  }
}

// A quoted string or name. Without a backslash or NUL inside, the token
// views the source; otherwise it is decoded into the token's buffer.
void Lexer::quoted(Token& out, char delim) {
  const std::size_t body = pos_ + 1;
  for (std::size_t i = body; i < src_.size(); ++i) {
    const char c = src_[i];
    if (c == delim) {
      out.str = src_.substr(body, i - body);
      out.str_owned = false;
      pos_ = i + 1;
      return;
    }
    if (c == '\\' || c == '\0') break;
  }
  out.buf.clear();
  if (syntax_ == StringSyntax::Old)
    old_string(out, delim);
  else
    new_string(out, delim);
  out.str = out.buf;
  out.str_owned = true;
}

void Lexer::number(Token& out) {
  std::size_t start = pos_;
  bool real = false;
  bool hex = false;
  if (peek() == '0' && (peek(1) == 'x' || peek(1) == 'X') && is_hex(peek(2))) {
    // Hexadecimal integers, as new ClassAds accept them. (Old-ClassAd
    // semantics read "0x1F" as 0; a site writing hex means hex.)
    hex = true;
    ++pos_;
    ++pos_;
    while (is_hex(peek())) ++pos_;
  } else {
    while (is_digit(peek())) ++pos_;
    if (peek() == '.' && is_digit(peek(1))) {
      real = true;
      ++pos_;
      while (is_digit(peek())) ++pos_;
    } else if (peek() == '.' && !is_alpha(peek(1)) && peek(1) != '_') {
      // "3." is a real, as strtod reads it; "3.x" is left for the parser
      // (a selection on a number, which it rejects).
      real = true;
      ++pos_;
    }
    if ((peek() == 'e' || peek() == 'E') &&
        (is_digit(peek(1)) || ((peek(1) == '+' || peek(1) == '-') && is_digit(peek(2))))) {
      real = true;
      ++pos_;
      if (peek() == '+' || peek() == '-') ++pos_;
      while (is_digit(peek())) ++pos_;
    }
  }
  std::string_view digits = src_.substr(start, pos_ - start);
  if (real) {
    out.kind = Tok::Real;
    std::string tmp(digits);
    out.r = std::strtod(tmp.c_str(), nullptr);
  } else {
    out.kind = Tok::Integer;
    std::uint64_t mag = 0;
    auto first = digits.data() + (hex ? 2 : 0);
    auto res = std::from_chars(first, digits.data() + digits.size(), mag, hex ? 16 : 10);
    if (res.ec == std::errc::result_out_of_range) mag = UINT64_MAX;
    out.mag = mag;
  }
  // Unit suffix: 2K = 2048 (HTCondor Value::ScaleFactor).
  switch (peek()) {
    case 'b':
    case 'B': out.factor = Factor::B; break;
    case 'k':
    case 'K': out.factor = Factor::K; break;
    case 'm':
    case 'M': out.factor = Factor::M; break;
    case 'g':
    case 'G': out.factor = Factor::G; break;
    case 't':
    case 'T': out.factor = Factor::T; break;
    default: break;
  }
  if (out.factor != Factor::None) ++pos_;
}

void Lexer::new_string(Token& out, char delim) {
  out.buf.clear();
  ++pos_;  // opening quote
  for (;;) {
    if (pos_ >= src_.size()) {
      out.kind = Tok::Invalid;
      out.problem = "unterminated string";
      return;
    }
    char c = peek();
    if (c == '\0') {
      out.kind = Tok::Invalid;
      out.problem = "string contains a NUL character";
      return;
    }
    if (c == delim) {
      ++pos_;
      return;
    }
    if (c != '\\') {
      out.buf.push_back(c);
      ++pos_;
      continue;
    }
    ++pos_;
    char e = peek();
    if (pos_ >= src_.size()) continue;  // reported as unterminated
    if (e == '\0') {
      out.kind = Tok::Invalid;
      out.problem = "string contains a NUL character";
      return;
    }
    ++pos_;
    switch (e) {
      case 'a': out.buf.push_back('\a'); break;
      case 'b': out.buf.push_back('\b'); break;
      case 'f': out.buf.push_back('\f'); break;
      case 'n': out.buf.push_back('\n'); break;
      case 'r': out.buf.push_back('\r'); break;
      case 't': out.buf.push_back('\t'); break;
      case 'v': out.buf.push_back('\v'); break;
      default:
        if (e >= '0' && e <= '7') {
          // Octal escape, up to three digits (HTCondor convert_escapes).
          int value = e - '0';
          for (int k = 0; k < 2 && peek() >= '0' && peek() <= '7'; ++k) {
            value = value * 8 + (peek() - '0');
            ++pos_;
          }
          if (value == 0 || value > 255) {
            out.kind = Tok::Invalid;
            out.problem = value == 0 ? "string contains a \\0 escape" : "octal escape out of range in string";
            return;
          }
          out.buf.push_back(static_cast<char>(value));
        } else {
          out.buf.push_back(e);  // \\, \", \' and anything else: the character itself
        }
    }
  }
}

void Lexer::old_string(Token& out, char delim) {
  out.buf.clear();
  ++pos_;
  for (;;) {
    if (pos_ >= src_.size()) {
      out.kind = Tok::Invalid;
      out.problem = "unterminated string";
      return;
    }
    char c = peek();
    if (c == '\0') {
      out.kind = Tok::Invalid;
      out.problem = "string contains a NUL character";
      return;
    }
    if (c == '\\' && peek(1) == delim) {
      // A quote after a backslash is literal, unless it ends the text (or
      // the line): then the string simply ends with a backslash.
      char after = peek(2);
      if (pos_ + 2 >= src_.size() || after == '\n') {
        out.buf.push_back('\\');
        ++pos_;
        ++pos_;
        return;
      }
      out.buf.push_back(delim);
      ++pos_;
      ++pos_;
      continue;
    }
    if (c == delim) {
      ++pos_;
      return;
    }
    out.buf.push_back(c);
    ++pos_;
  }
}

void Lexer::punct(Token& out) {
  char c = peek();
  char d = peek(1);
  auto one = [&](Tok t) {
    out.kind = t;
    ++pos_;
  };
  auto two = [&](Tok t) {
    out.kind = t;
    ++pos_;
    ++pos_;
  };
  switch (c) {
    case '(': return one(Tok::LParen);
    case ')': return one(Tok::RParen);
    case '{': return one(Tok::LBrace);
    case '}': return one(Tok::RBrace);
    case '[': return one(Tok::LBox);
    case ']': return one(Tok::RBox);
    case ',': return one(Tok::Comma);
    case ';': return one(Tok::Semicolon);
    case '.': return one(Tok::Dot);
    case '?': return one(Tok::Question);
    case ':': return one(Tok::Colon);
    case '+': return one(Tok::Plus);
    case '-': return one(Tok::Minus);
    case '*': return one(Tok::Star);
    case '/': return one(Tok::Slash);
    case '%': return one(Tok::Percent);
    case '~': return one(Tok::BitNot);
    case '^': return one(Tok::BitXor);
    case '&': return d == '&' ? two(Tok::AndAnd) : one(Tok::BitAnd);
    case '|': return d == '|' ? two(Tok::OrOr) : one(Tok::BitOr);
    case '!': return d == '=' ? two(Tok::NotEq) : one(Tok::Not);
    case '<':
      if (d == '<') return two(Tok::Shl);
      return d == '=' ? two(Tok::LessEq) : one(Tok::Less);
    case '>':
      if (d == '>') {
        if (peek(2) == '>') {
          out.kind = Tok::UShr;
          ++pos_;
          ++pos_;
          ++pos_;
          return;
        }
        return two(Tok::Shr);
      }
      return d == '=' ? two(Tok::GreaterEq) : one(Tok::Greater);
    case '=':
      if (d == '=') return two(Tok::EqEq);
      if ((d == '?' || d == '!') && peek(2) == '=') {
        out.kind = d == '?' ? Tok::MetaEq : Tok::MetaNotEq;
        ++pos_;
        ++pos_;
        ++pos_;
        return;
      }
      return one(Tok::Assign);
    default:
      out.kind = Tok::Invalid;
      out.problem = std::string("unexpected character '") + c + "'";
      ++pos_;
  }
}

}  // namespace cara::classad
