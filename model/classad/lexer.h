// Tokens of the ClassAd language (HTCondor lexer.cpp), with line and column
// of every token so that parse errors can say where they are.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "model/classad/expr.h"

namespace cara::classad {

enum class Tok : std::uint8_t {
  End,
  Invalid,
  Integer,
  Real,
  String,
  Identifier,
  QuotedIdentifier,
  True,
  False,
  Undefined,
  ErrorLit,
  // punctuation and operators
  LParen,
  RParen,
  LBrace,
  RBrace,
  LBox,
  RBox,
  Comma,
  Semicolon,
  Dot,
  Assign,
  Question,
  Colon,
  Plus,
  Minus,
  Star,
  Slash,
  Percent,
  Shl,
  Shr,
  UShr,
  Less,
  LessEq,
  Greater,
  GreaterEq,
  EqEq,
  NotEq,
  MetaEq,
  MetaNotEq,
  BitAnd,
  BitOr,
  BitXor,
  BitNot,
  Not,
  AndAnd,
  OrOr,
};

const char* tok_name(Tok t);

struct Token {
  Tok kind = Tok::End;
  std::size_t pos = 0;    // offset in the lexer's text (Lexer::where gives line and column)
  std::string_view text;  // source text of the token
  std::uint64_t mag = 0;  // Integer magnitude; the parser applies a unary minus
                          // and saturates as strtoll does
  double r = 0;           // Real
  Factor factor = Factor::None;
  // Decoded String / QuotedIdentifier. It views the source when the string
  // has no escape (nearly always), else `buf`; either way it is valid only
  // until the next token is scanned if it views `buf` (str_owned).
  std::string_view str;
  bool str_owned = false;
  std::string buf;
  std::string problem;  // why the token is Invalid
};

struct SourcePosition {
  int line, column;
};

// Old ClassAd syntax treats a backslash literally except before a quote
// (lexer.cpp tokenizeStringOld); new syntax has C-like escapes.
enum class StringSyntax : std::uint8_t { New, Old };

class Lexer {
 public:
  Lexer(std::string_view text, StringSyntax syntax, int first_line = 1, int first_column = 1)
      : src_(text), syntax_(syntax), first_line_(first_line), first_column_(first_column) {}

  // Scans the next token into `out`.
  void next(Token& out);
  std::size_t position() const { return pos_; }
  // The source between two offsets (what a run of tokens spelled).
  std::string_view text(std::size_t from, std::size_t to) const { return src_.substr(from, to - from); }
  std::string_view source() const { return src_; }
  // Goes on scanning from offset `pos` (a token's start: the parser has
  // taken what lies before it without scanning it).
  void seek(std::size_t pos) { pos_ = pos; }

  // Line and column of offset `pos`. Counted on demand, since only error
  // messages need them: tracking them per character cost a fifth of the
  // lexing time (bench/RESULTS.md, parse_ads_per_s).
  SourcePosition where(std::size_t pos) const;

 private:
  char peek(std::size_t ahead = 0) const { return pos_ + ahead < src_.size() ? src_[pos_ + ahead] : '\0'; }
  bool skip_space_and_comments(Token& out);
  void word(Token& out);
  void quoted(Token& out, char delim);
  void number(Token& out);
  void new_string(Token& out, char delim);
  void old_string(Token& out, char delim);
  void punct(Token& out);

  std::string_view src_;
  StringSyntax syntax_;
  std::size_t pos_ = 0;
  int first_line_, first_column_;
};

}  // namespace cara::classad
