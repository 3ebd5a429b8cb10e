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
  int line = 1, column = 1;
  std::string_view text;  // source text of the token
  std::uint64_t mag = 0;  // Integer magnitude; the parser applies a unary minus
                          // and saturates as strtoll does
  double r = 0;           // Real
  Factor factor = Factor::None;
  std::string str;      // decoded String / QuotedIdentifier
  std::string problem;  // why the token is Invalid
};

// Old ClassAd syntax treats a backslash literally except before a quote
// (lexer.cpp tokenizeStringOld); new syntax has C-like escapes.
enum class StringSyntax : std::uint8_t { New, Old };

class Lexer {
 public:
  Lexer(std::string_view text, StringSyntax syntax, int first_line = 1, int first_column = 1)
      : src_(text), syntax_(syntax), line_(first_line), col_(first_column) {}

  // Scans the next token into `out`.
  void next(Token& out);
  std::size_t position() const { return pos_; }

 private:
  char peek(std::size_t ahead = 0) const { return pos_ + ahead < src_.size() ? src_[pos_ + ahead] : '\0'; }
  void advance();
  bool skip_space_and_comments(Token& out);
  void number(Token& out);
  void new_string(Token& out, char delim);
  void old_string(Token& out, char delim);
  void punct(Token& out);

  std::string_view src_;
  StringSyntax syntax_;
  std::size_t pos_ = 0;
  int line_, col_;
};

}  // namespace cara::classad
