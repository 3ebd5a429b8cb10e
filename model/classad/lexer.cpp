#include "model/classad/lexer.h"

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

void Lexer::advance() {
  if (pos_ >= src_.size()) return;
  if (src_[pos_] == '\n') {
    ++line_;
    col_ = 1;
  } else {
    ++col_;
  }
  ++pos_;
}

// Returns false (with an Invalid token) for an unterminated /* comment.
bool Lexer::skip_space_and_comments(Token& out) {
  for (;;) {
    char c = peek();
    if (is_space(c)) {
      advance();
    } else if (c == '/' && peek(1) == '/') {
      while (pos_ < src_.size() && peek() != '\n') advance();
    } else if (c == '/' && peek(1) == '*') {
      out.line = line_;
      out.column = col_;
      advance();
      advance();
      while (pos_ < src_.size() && !(peek() == '*' && peek(1) == '/')) advance();
      if (pos_ >= src_.size()) {
        out.kind = Tok::Invalid;
        out.problem = "unterminated /* comment";
        return false;
      }
      advance();
      advance();
    } else {
      return true;
    }
  }
}

void Lexer::next(Token& out) {
  out.factor = Factor::None;
  if (!skip_space_and_comments(out)) return;
  out.line = line_;
  out.column = col_;
  std::size_t start = pos_;
  char c = peek();
  if (pos_ >= src_.size()) {
    out.kind = Tok::End;
    out.text = {};
    return;
  }
  if (is_digit(c) || (c == '.' && is_digit(peek(1)))) {
    number(out);
  } else if (is_alpha(c) || c == '_') {
    while (is_ident(peek())) advance();
    std::string_view word = src_.substr(start, pos_ - start);
    out.kind = Tok::Identifier;
    if (iequals(word, "true"))
      out.kind = Tok::True;
    else if (iequals(word, "false"))
      out.kind = Tok::False;
    else if (iequals(word, "undefined"))
      out.kind = Tok::Undefined;
    else if (iequals(word, "error"))
      out.kind = Tok::ErrorLit;
    else if (iequals(word, "is"))
      out.kind = Tok::MetaEq;
    else if (iequals(word, "isnt"))
      out.kind = Tok::MetaNotEq;
  } else if (c == '"' || c == '\'') {
    if (syntax_ == StringSyntax::Old)
      old_string(out, c);
    else
      new_string(out, c);
    if (out.kind != Tok::Invalid) out.kind = (c == '"') ? Tok::String : Tok::QuotedIdentifier;
  } else {
    punct(out);
  }
  out.text = src_.substr(start, pos_ - start);
}

void Lexer::number(Token& out) {
  std::size_t start = pos_;
  bool real = false;
  bool hex = false;
  if (peek() == '0' && (peek(1) == 'x' || peek(1) == 'X') && is_hex(peek(2))) {
    // Hexadecimal integers, as new ClassAds accept them. (Old-ClassAd
    // semantics read "0x1F" as 0; a site writing hex means hex.)
    hex = true;
    advance();
    advance();
    while (is_hex(peek())) advance();
  } else {
    while (is_digit(peek())) advance();
    if (peek() == '.' && is_digit(peek(1))) {
      real = true;
      advance();
      while (is_digit(peek())) advance();
    } else if (peek() == '.' && !is_alpha(peek(1)) && peek(1) != '_') {
      // "3." is a real, as strtod reads it; "3.x" is left for the parser
      // (a selection on a number, which it rejects).
      real = true;
      advance();
    }
    if ((peek() == 'e' || peek() == 'E') &&
        (is_digit(peek(1)) || ((peek(1) == '+' || peek(1) == '-') && is_digit(peek(2))))) {
      real = true;
      advance();
      if (peek() == '+' || peek() == '-') advance();
      while (is_digit(peek())) advance();
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
  if (out.factor != Factor::None) advance();
}

void Lexer::new_string(Token& out, char delim) {
  out.str.clear();
  int line = line_, col = col_;
  advance();  // opening quote
  for (;;) {
    if (pos_ >= src_.size()) {
      out.kind = Tok::Invalid;
      out.line = line;
      out.column = col;
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
      advance();
      return;
    }
    if (c != '\\') {
      out.str.push_back(c);
      advance();
      continue;
    }
    advance();
    char e = peek();
    if (pos_ >= src_.size()) continue;  // reported as unterminated
    if (e == '\0') {
      out.kind = Tok::Invalid;
      out.problem = "string contains a NUL character";
      return;
    }
    advance();
    switch (e) {
      case 'a': out.str.push_back('\a'); break;
      case 'b': out.str.push_back('\b'); break;
      case 'f': out.str.push_back('\f'); break;
      case 'n': out.str.push_back('\n'); break;
      case 'r': out.str.push_back('\r'); break;
      case 't': out.str.push_back('\t'); break;
      case 'v': out.str.push_back('\v'); break;
      default:
        if (e >= '0' && e <= '7') {
          // Octal escape, up to three digits (HTCondor convert_escapes).
          int value = e - '0';
          for (int k = 0; k < 2 && peek() >= '0' && peek() <= '7'; ++k) {
            value = value * 8 + (peek() - '0');
            advance();
          }
          if (value == 0 || value > 255) {
            out.kind = Tok::Invalid;
            out.problem = value == 0 ? "string contains a \\0 escape" : "octal escape out of range in string";
            return;
          }
          out.str.push_back(static_cast<char>(value));
        } else {
          out.str.push_back(e);  // \\, \", \' and anything else: the character itself
        }
    }
  }
}

void Lexer::old_string(Token& out, char delim) {
  out.str.clear();
  int line = line_, col = col_;
  advance();
  for (;;) {
    if (pos_ >= src_.size()) {
      out.kind = Tok::Invalid;
      out.line = line;
      out.column = col;
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
        out.str.push_back('\\');
        advance();
        advance();
        return;
      }
      out.str.push_back(delim);
      advance();
      advance();
      continue;
    }
    if (c == delim) {
      advance();
      return;
    }
    out.str.push_back(c);
    advance();
  }
}

void Lexer::punct(Token& out) {
  char c = peek();
  char d = peek(1);
  auto one = [&](Tok t) {
    out.kind = t;
    advance();
  };
  auto two = [&](Tok t) {
    out.kind = t;
    advance();
    advance();
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
          advance();
          advance();
          advance();
          return;
        }
        return two(Tok::Shr);
      }
      return d == '=' ? two(Tok::GreaterEq) : one(Tok::Greater);
    case '=':
      if (d == '=') return two(Tok::EqEq);
      if ((d == '?' || d == '!') && peek(2) == '=') {
        out.kind = d == '?' ? Tok::MetaEq : Tok::MetaNotEq;
        advance();
        advance();
        advance();
        return;
      }
      return one(Tok::Assign);
    default:
      out.kind = Tok::Invalid;
      out.problem = std::string("unexpected character '") + c + "'";
      advance();
  }
}

}  // namespace cara::classad
