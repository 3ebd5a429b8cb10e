#include "model/classad/parser.h"

#include <algorithm>
#include <memory>
#include <string>
#include <utility>

#include "model/classad/expr_cache.h"
#include "model/classad/parse_at.h"

namespace cara::classad {
namespace {

// Nesting deeper than this is refused rather than risking the stack.
constexpr int kMaxDepth = 200;

struct ParseFailure {
  int line, column;
  std::string message;
};

std::string describe(const Token& t) {
  if (t.kind == Tok::End) return "end of input";
  if (t.kind == Tok::Invalid) return t.problem;
  return "'" + std::string(t.text) + "'";
}

class Parser {
 public:
  Parser(std::string_view text, StringSyntax strings, int line = 1, int column = 1, ArenaPtr arena = nullptr)
      : lex_(text, strings, line, column), arena_(std::move(arena)) {
    advance();
  }

  // Attribute values spelled as one in `cache` take its tree (see
  // parse_new_classad_sharing); the outermost ad makes room for `reserve`.
  void share_through(ExprCache* cache, std::size_t reserve) {
    shared_ = cache;
    reserve_ = reserve;
  }

  ExprPtr whole_expression() {
    ExprBuilder builder;
    ExprBuilder* saved = b_;
    b_ = &builder;
    expression();
    b_ = saved;
    expect_end("after the expression");
    return builder.finish(arena_);
  }

  ClassAd whole_record() {
    ClassAd ad = record();
    expect_end("after the ClassAd");
    return ad;
  }

  const Token& token() const { return tok_; }
  void advance() {
    lex_.next(tok_);
    if (tok_.kind == Tok::Invalid) fail(tok_.problem);
  }
  [[noreturn]] void fail(const std::string& what) {
    const SourcePosition at = lex_.where(tok_.pos);
    throw ParseFailure{at.line, at.column, what};
  }
  [[noreturn]] void expected(const std::string& what) {
    fail("expected " + what + " but found " + describe(tok_));
  }
  void expect(Tok kind, const char* what) {
    if (tok_.kind != kind) expected(what);
    advance();
  }
  void expect_end(const char* where) {
    if (tok_.kind != Tok::End) fail("unexpected " + describe(tok_) + " " + where);
  }

 private:
  struct DepthGuard {
    Parser& p;
    explicit DepthGuard(Parser& parser) : p(parser) {
      if (++p.depth_ > kMaxDepth)
        p.fail("expression nested too deeply (limit " + std::to_string(kMaxDepth) + ")");
    }
    ~DepthGuard() { --p.depth_; }
  };

  NodeIndex expression() {
    DepthGuard guard(*this);
    NodeIndex cond = logical_or();
    if (tok_.kind != Tok::Question) return cond;
    advance();
    if (tok_.kind == Tok::Colon) {  // a ?: b
      advance();
      NodeIndex other = expression();
      return b_->elvis(cond, other);
    }
    NodeIndex then = expression();
    expect(Tok::Colon, "':' of the ?: operator");
    NodeIndex other = expression();
    return b_->ternary(cond, then, other);
  }

  // The binary operators by precedence (HTCondor's grammar, loosest
  // first): || && | ^ & (== != =?= =!=) (< <= > >=) (<< >> >>>) (+ -)
  // (* / %); all left-associative. Returns 0 for a token that is not one.
  static int binary_precedence(Tok t, Op& op) {
    switch (t) {
      case Tok::OrOr: op = Op::Or; return 1;
      case Tok::AndAnd: op = Op::And; return 2;
      case Tok::BitOr: op = Op::BitOr; return 3;
      case Tok::BitXor: op = Op::BitXor; return 4;
      case Tok::BitAnd: op = Op::BitAnd; return 5;
      case Tok::EqEq: op = Op::Eq; return 6;
      case Tok::NotEq: op = Op::NotEq; return 6;
      case Tok::MetaEq: op = Op::MetaEq; return 6;
      case Tok::MetaNotEq: op = Op::MetaNotEq; return 6;
      case Tok::Less: op = Op::Less; return 7;
      case Tok::LessEq: op = Op::LessEq; return 7;
      case Tok::Greater: op = Op::Greater; return 7;
      case Tok::GreaterEq: op = Op::GreaterEq; return 7;
      case Tok::Shl: op = Op::Shl; return 8;
      case Tok::Shr: op = Op::Shr; return 8;
      case Tok::UShr: op = Op::UShr; return 8;
      case Tok::Plus: op = Op::Add; return 9;
      case Tok::Minus: op = Op::Sub; return 9;
      case Tok::Star: op = Op::Mul; return 10;
      case Tok::Slash: op = Op::Div; return 10;
      case Tok::Percent: op = Op::Mod; return 10;
      default: return 0;
    }
  }

  // Precedence climbing: one loop instead of a function per level, so a
  // literal does not descend through ten calls (parse speed, TARGETS.md).
  NodeIndex binary(int min_precedence) {
    NodeIndex lhs = unary();
    for (;;) {
      Op op{};
      const int precedence = binary_precedence(tok_.kind, op);
      if (precedence == 0 || precedence < min_precedence) return lhs;
      advance();
      NodeIndex rhs = binary(precedence + 1);
      lhs = b_->binary(op, lhs, rhs);
    }
  }

  NodeIndex logical_or() { return binary(1); }

  NodeIndex unary() {
    Op op;
    switch (tok_.kind) {
      case Tok::Minus: op = Op::UnaryMinus; break;
      case Tok::Plus: op = Op::UnaryPlus; break;
      case Tok::BitNot: op = Op::BitNot; break;
      case Tok::Not: op = Op::Not; break;
      default: return postfix();
    }
    DepthGuard guard(*this);
    advance();
    NodeIndex operand = unary();
    if (op == Op::UnaryMinus && fold_negation(operand)) return operand;
    return b_->unary(op, operand);
  }

  // A minus directly on a number literal is part of the literal, as in
  // HTCondor's lexer: "-3" is the integer -3, so unparse round-trips.
  bool fold_negation(NodeIndex operand) {
    Node& n = b_->at(operand);
    if (n.parens != 0) return false;
    if (n.kind == NodeKind::Real) {
      n.num.r = -n.num.r;
      return true;
    }
    if (n.kind == NodeKind::Integer && operand == last_int_node_) {
      last_int_negative_ = !last_int_negative_;
      n.num.i = int_value(last_int_mag_, last_int_negative_);
      return true;
    }
    return false;
  }

  static std::int64_t int_value(std::uint64_t mag, bool negative) {
    constexpr std::uint64_t kMin = 9223372036854775808ull;
    if (negative) return mag >= kMin ? INT64_MIN : -static_cast<std::int64_t>(mag);
    return mag >= kMin ? INT64_MAX : static_cast<std::int64_t>(mag);
  }

  NodeIndex postfix() {
    NodeIndex base = primary();
    for (;;) {
      if (tok_.kind == Tok::Dot) {
        advance();
        base = b_->select(base, attribute_name("an attribute name after '.'"));
      } else if (tok_.kind == Tok::LBox) {
        DepthGuard guard(*this);
        advance();
        NodeIndex index = expression();
        expect(Tok::RBox, "']' closing the subscript");
        base = b_->binary(Op::Subscript, base, index);
      } else {
        return base;
      }
    }
  }

  // The name at the current token, which is then consumed. The view is valid
  // until the next call (a decoded quoted name lives in name_buf_).
  std::string_view attribute_name(const char* what) {
    if (tok_.kind != Tok::Identifier && tok_.kind != Tok::QuotedIdentifier) expected(what);
    std::string_view name = token_name();
    if (name.empty()) fail("attribute name is empty");
    advance();
    return name;
  }

  // The current token's name, surviving advance(): the source text, or a
  // copy of a quoted name that needed decoding.
  std::string_view token_name() {
    if (tok_.kind == Tok::Identifier) return tok_.text;
    if (!tok_.str_owned) return tok_.str;
    name_buf_.assign(tok_.str);
    return name_buf_;
  }

  NodeIndex primary() {
    switch (tok_.kind) {
      case Tok::Integer: {
        NodeIndex n = b_->literal_int(int_value(tok_.mag, false), tok_.factor);
        last_int_node_ = n;
        last_int_mag_ = tok_.mag;
        last_int_negative_ = false;
        advance();
        return n;
      }
      case Tok::Real: {
        NodeIndex n = b_->literal_real(tok_.r, tok_.factor);
        advance();
        return n;
      }
      case Tok::String: {
        // Adjacent string literals concatenate (HTCondor lexer). A lone
        // literal without escapes is used where it lies in the source.
        std::string_view s = tok_.str;
        std::string joined;
        const bool copied = tok_.str_owned;  // the token's buffer is reused by advance()
        if (copied) {
          joined.assign(s);
          s = joined;
        }
        advance();
        if (tok_.kind != Tok::String) return b_->literal_string(s);
        if (!copied) joined.assign(s);
        while (tok_.kind == Tok::String) {
          joined += tok_.str;
          advance();
        }
        return b_->literal_string(joined);
      }
      case Tok::True: advance(); return b_->literal_bool(true);
      case Tok::False: advance(); return b_->literal_bool(false);
      case Tok::Undefined: advance(); return b_->literal_undefined();
      case Tok::ErrorLit: advance(); return b_->literal_error();
      case Tok::Identifier:
      case Tok::QuotedIdentifier: return name_or_call();
      case Tok::Dot: {
        advance();
        return b_->scoped_attr(Scope::Root, attribute_name("an attribute name after '.'"));
      }
      case Tok::LParen: {
        DepthGuard guard(*this);
        advance();
        NodeIndex inner = expression();
        expect(Tok::RParen, "')'");
        if (b_->at(inner).parens == 255) fail("too many parentheses");
        b_->add_parens(inner);
        return inner;
      }
      case Tok::LBrace: return list();
      case Tok::LBox: {
        DepthGuard guard(*this);
        return b_->record(std::make_shared<const ClassAd>(record()));
      }
      default: expected("an expression");
    }
  }

  NodeIndex name_or_call() {
    bool quoted = tok_.kind == Tok::QuotedIdentifier;
    std::string_view name = token_name();  // a call's name is never quoted, so it views the source
    if (name.empty()) fail("attribute name is empty");
    advance();
    if (!quoted && tok_.kind == Tok::LParen) return call(name);
    if (!quoted && tok_.kind == Tok::Dot && (iequals(name, "MY") || iequals(name, "TARGET"))) {
      advance();
      Scope scope = iequals(name, "MY") ? Scope::My : Scope::Target;
      return b_->scoped_attr(scope, attribute_name("an attribute name after '.'"));
    }
    return b_->attr(name);
  }

  NodeIndex call(std::string_view name) {
    DepthGuard guard(*this);
    advance();  // (
    const std::size_t first = items(Tok::RParen, name);
    NodeIndex n = b_->call(name, std::span<const NodeIndex>(item_stack_).subspan(first));
    item_stack_.resize(first);
    return n;
  }

  NodeIndex list() {
    DepthGuard guard(*this);
    advance();  // {
    const std::size_t first = items(Tok::RBrace, {});
    NodeIndex n = b_->list(std::span<const NodeIndex>(item_stack_).subspan(first));
    item_stack_.resize(first);
    return n;
  }

  // Comma-separated expressions up to `close`, pushed on item_stack_ (one
  // stack for all nesting levels, so a call costs no allocation); returns
  // where they start. `function` names the call whose arguments these are
  // (empty: a list), for the error message.
  std::size_t items(Tok close, std::string_view function) {
    const std::size_t first = item_stack_.size();
    if (tok_.kind != close) {
      for (;;) {
        NodeIndex item = expression();
        item_stack_.push_back(item);
        if (tok_.kind == Tok::Comma) {
          advance();
          continue;
        }
        if (tok_.kind == close) break;
        expected(function.empty() ? std::string("',' or '}' in the list")
                                  : "',' or ')' in the arguments of " + std::string(function) + "()");
      }
    }
    advance();
    return first;
  }

  // [ name = expr; ... ]  Empty statements (;;) are allowed, as HTCondor does.
  ClassAd record() {
    expect(Tok::LBox, "'[' starting a ClassAd");
    ClassAd ad;
    if (reserve_ > 0) ad.reserve(std::exchange(reserve_, 0));
    for (;;) {
      while (tok_.kind == Tok::Semicolon) advance();
      if (tok_.kind == Tok::RBox) break;
      std::string name(attribute_name("an attribute name or ']'"));
      expect(Tok::Assign, ("'=' after attribute " + name).c_str());
      if (shared_) {
        // A value spelled exactly as one the cache holds is that one's
        // tree, taken without parsing it again: a schedd reading 100 k
        // stored jobs back parsed every value of every job, nearly all of
        // them spelled as the job's before (issue 21).
        if (const std::size_t end = value_end(tok_.pos); end != kNoEnd) {
          if (ExprPtr seen = shared_->find(lex_.text(tok_.pos, end))) {
            lex_.seek(end);
            advance();  // the ';' or ']' that ends it
            ad.insert(name, std::move(seen));
            continue;
          }
        }
      }
      ExprBuilder builder;
      ExprBuilder* saved = b_;
      NodeIndex saved_int = last_int_node_;
      b_ = &builder;
      const std::size_t from = tok_.pos;
      expression();
      b_ = saved;
      last_int_node_ = saved_int;
      ad.insert(name, value_tree(builder, from));
      if (tok_.kind != Tok::Semicolon && tok_.kind != Tok::RBox) {
        expected("';' or ']' after the value of " + name);
      }
    }
    advance();  // ]
    return ad;
  }

  // Where the value that begins at offset `from` ends: the first ';' or
  // ']' past it outside strings and brackets, or kNoEnd. A cheap scan, not
  // the lexer's: it need not be right, only what it finds is looked up in
  // the shared cache, whose texts are each a whole value the parser read,
  // and a whole value followed by ';' or ']' parses to that value whatever
  // came before it (neither token can go on an expression).
  static constexpr std::size_t kNoEnd = static_cast<std::size_t>(-1);
  std::size_t value_end(std::size_t from) const {
    const std::string_view src = lex_.source();
    int depth = 0;
    for (std::size_t i = from; i < src.size(); ++i) {
      const char c = src[i];
      if (c == '"' || c == '\'') {
        for (++i; i < src.size() && src[i] != c; ++i)
          if (src[i] == '\\') ++i;
        if (i >= src.size()) return kNoEnd;
      } else if (c == '[' || c == '(' || c == '{') {
        ++depth;
      } else if (c == ')' || c == '}') {
        --depth;
      } else if (c == ']') {
        if (depth == 0) return i;
        --depth;
      } else if (c == ';' && depth == 0) {
        return i;
      }
    }
    return kNoEnd;
  }

  // The tree of the value that began at offset `from` (the current token
  // ends it): with a shared cache, the one an earlier value spelled exactly
  // so gave, and the builder's nodes are dropped.
  ExprPtr value_tree(ExprBuilder& builder, std::size_t from) {
    if (!shared_) return builder.finish(arena_);
    const std::string_view spelled = lex_.text(from, tok_.pos);
    if (ExprPtr seen = shared_->find(spelled)) return seen;
    ExprPtr tree = builder.finish(arena_);
    shared_->put(spelled, tree);
    return tree;
  }

  Lexer lex_;
  ArenaPtr arena_;               // where finished trees go (null: the heap)
  ExprCache* shared_ = nullptr;  // trees by spelling, when ads share them
  std::size_t reserve_ = 0;      // attributes the outermost ad makes room for
  Token tok_;
  ExprBuilder* b_ = nullptr;
  int depth_ = 0;
  std::string name_buf_;               // a decoded quoted name (attribute_name)
  std::vector<NodeIndex> item_stack_;  // arguments and list items being parsed
  NodeIndex last_int_node_ = 0xffffffffu;
  std::uint64_t last_int_mag_ = 0;
  bool last_int_negative_ = false;
};

Error to_error(const ParseFailure& f) {
  return Error{"line " + std::to_string(f.line) + ", column " + std::to_string(f.column) + ": " + f.message};
}

}  // namespace

Result<ExprPtr> parse_expression(std::string_view text, StringSyntax strings) {
  try {
    Parser p(text, strings);
    return p.whole_expression();
  } catch (const ParseFailure& f) {
    return to_error(f);
  }
}

Result<ExprPtr> parse_expression_shared(std::string_view text, StringSyntax strings) {
  ExprCache* cache = ExprCache::for_this_thread(strings);
  if (cache) {
    if (ExprPtr hit = cache->find(text)) return hit;
  }
  auto parsed = parse_expression(text, strings);
  if (parsed && cache) cache->put(text, *parsed);
  return parsed;
}

Result<ExprPtr> parse_constraint(std::string_view text) {
  auto e = parse_expression(text);
  if (!e) return Error{"constraint '" + std::string(text) + "' does not parse: " + e.error()};
  return e;
}

Result<ClassAd> parse_new_classad(std::string_view text) {
  try {
    Parser p(text, StringSyntax::New);
    return p.whole_record();
  } catch (const ParseFailure& f) {
    return to_error(f);
  }
}

Result<ClassAd> parse_new_classad_sharing(std::string_view text, ExprCache& shared, std::size_t reserve) {
  try {
    Parser p(text, StringSyntax::New);
    p.share_through(&shared, reserve);
    return p.whole_record();
  } catch (const ParseFailure& f) {
    return to_error(f);
  }
}

Result<ExprPtr> parse_expression_at(std::string_view text, StringSyntax strings, int line, int column,
                                    ArenaPtr arena, std::string_view context) {
  try {
    Parser p(text, strings, line, column, std::move(arena));
    return p.whole_expression();
  } catch (const ParseFailure& f) {
    return to_error(ParseFailure{f.line, f.column, std::string(context) + f.message});
  }
}

Result<ClassAd> parse_new_classad_at(std::string_view text, int line, int column) {
  try {
    Parser p(text, StringSyntax::New, line, column);
    return p.whole_record();
  } catch (const ParseFailure& f) {
    return to_error(f);
  }
}

}  // namespace cara::classad
