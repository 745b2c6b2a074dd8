// PGN tokenizer, game parser and replay.
#include "book/pgn.h"

#include <cctype>

#include "core/san.h"
#include "core/text.h"

namespace vblitz::book {

namespace {

constexpr size_t kMaxVariationDepth = 64;  // deeper nesting is refused (recursion bound)

bool is_result(const std::string& w) { return w == "1-0" || w == "0-1" || w == "1/2-1/2" || w == "*"; }

int nag_annotation(int nag) {
  switch (nag) {
    case 1: return 1;
    case 2: return -1;
    case 3: return 2;
    case 4: return -2;
    default: return 0;
  }
}

// Removes a trailing !, ?, !!, ??, !? or ?! from san and returns its value.
int strip_suffix(std::string& san) {
  size_t end = san.find_last_not_of("!?");
  std::string suffix = end == std::string::npos ? san : san.substr(end + 1);
  san.resize(end == std::string::npos ? 0 : end + 1);
  if (suffix == "!!") return 2;
  if (suffix == "!") return 1;
  if (suffix == "?") return -1;
  if (suffix == "??") return -2;
  return 0;
}

bool looks_like_san(const std::string& w) {
  if (w.empty()) return false;
  for (char c : w)
    if (std::string("abcdefghKQRBNPx12345678O0-=+#").find(c) == std::string::npos) return false;
  return true;
}

// Plays `line` from pos (restored on return), visiting variations before the move they replace.
std::optional<std::string> walk(core::Position& pos, const std::vector<PgnMove>& line, int ply,
                                bool main_line, const MoveVisitor& visit) {
  std::vector<core::StateInfo> states(line.size());
  std::vector<core::Move> played;
  std::optional<std::string> error;
  for (const PgnMove& pm : line) {
    for (const auto& variation : pm.variations)
      if ((error = walk(pos, variation, ply, false, visit))) break;
    if (error) break;
    core::Move m = core::parse_san(pos, pm.san);
    if (m == core::Move::none()) {
      error = "line " + std::to_string(pm.line) + ": " + core::quote(pm.san) + " is not a legal move (ply " +
              std::to_string(ply + 1) + (main_line ? "" : ", in a variation") + ")";
      break;
    }
    visit(pos, m, ply, main_line, pm.annotation);
    pos.do_move(m, states[played.size()]);
    played.push_back(m);
    ++ply;
  }
  for (auto it = played.rbegin(); it != played.rend(); ++it) pos.undo_move(*it);
  return error;
}

}  // namespace

std::string PgnGame::tag(const std::string& name) const {
  for (const auto& [key, value] : tags)
    if (key == name) return value;
  return "";
}

bool PgnReader::fill_line() {
  do {
    if (!std::getline(in_, buffer_)) {
      buffer_.clear();  // (getline leaves it as it was at the end of input)
      pos_ = 0;
      return false;
    }
    ++line_;
  } while (!buffer_.empty() && buffer_[0] == '%');
  pos_ = 0;
  return true;
}

PgnReader::Token PgnReader::peek_token() {
  if (!peeked_) peeked_ = read_token();
  return *peeked_;
}

PgnReader::Token PgnReader::read_token() {
  if (peeked_) {
    Token t = *peeked_;
    peeked_.reset();
    return t;
  }
  for (;;) {
    if (pos_ >= buffer_.size()) {
      if (!fill_line()) return {Token::kEnd, "", "", line_};
      continue;
    }
    const char c = buffer_[pos_];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++pos_;
    } else if (c == ';') {
      pos_ = buffer_.size();
    } else if (c == '{') {
      const int start = line_;
      for (size_t close; (close = buffer_.find('}', pos_)) == std::string::npos;)
        if (!fill_line()) return {Token::kError, "unterminated comment", "", start};
      pos_ = buffer_.find('}', pos_) + 1;
    } else if (c == '}') {
      ++pos_;
      return {Token::kError, "'}' without '{'", "", line_};
    } else if (c == '(' || c == ')') {
      ++pos_;
      return {c == '(' ? Token::kOpen : Token::kClose, std::string(1, c), "", line_};
    } else if (c == '$') {
      size_t end = buffer_.find_first_not_of("0123456789", pos_ + 1);
      if (end == std::string::npos) end = buffer_.size();
      Token t{Token::kNag, buffer_.substr(pos_ + 1, end - pos_ - 1), "", line_};
      pos_ = end;
      return t;
    } else if (c == '[') {
      // [Name "value"] with \" and \\ escapes, on one line.
      Token t{Token::kTag, "", "", line_};
      size_t i = pos_ + 1;
      while (i < buffer_.size() &&
             (std::isalnum(static_cast<unsigned char>(buffer_[i])) || buffer_[i] == '_'))
        t.text += buffer_[i++];
      while (i < buffer_.size() && buffer_[i] == ' ') ++i;
      bool ok = !t.text.empty() && i < buffer_.size() && buffer_[i] == '"';
      for (++i; ok && i < buffer_.size() && buffer_[i] != '"'; ++i) {
        if (buffer_[i] == '\\' && i + 1 < buffer_.size()) ++i;
        t.value += buffer_[i];
      }
      ok = ok && i < buffer_.size();
      size_t close = ok ? buffer_.find_first_not_of(' ', i + 1) : std::string::npos;
      pos_ = buffer_.size();
      if (!ok || close == std::string::npos || buffer_[close] != ']')
        return {Token::kError, "malformed tag pair", "", t.line};
      pos_ = close + 1;
      return t;
    } else {
      size_t end = buffer_.find_first_of(" \t\r\n{}();[$", pos_);
      if (end == std::string::npos) end = buffer_.size();
      Token t{Token::kWord, buffer_.substr(pos_, end - pos_), "", line_};
      pos_ = end;
      return t;
    }
  }
}

void PgnReader::skip_game(bool past_tags) {
  for (;;) {
    Token t = peek_token();
    if (t.kind == Token::kEnd) return;
    if (t.kind == Token::kTag && past_tags) return;  // the next game's tags
    read_token();
    if (t.kind != Token::kTag) past_tags = true;
    if (t.kind == Token::kWord && is_result(t.text)) return;
  }
}

PgnReader::Status PgnReader::next(PgnGame& game, std::string& reason) {
  game = PgnGame{};
  Token t = read_token();
  if (t.kind == Token::kEnd) return Status::kEnd;
  game.number = ++games_;
  game.line = t.line;
  bool in_movetext = false;  // after an error there, the next tag pair starts the next game
  auto fail = [&](const Token& at, const std::string& why) {
    reason = "game " + std::to_string(game.number) + " (line " + std::to_string(at.line) + "): " + why;
    skip_game(in_movetext);
    return Status::kSkipped;
  };

  for (; t.kind == Token::kTag; t = read_token()) game.tags.emplace_back(t.text, t.value);
  std::vector<std::vector<PgnMove>*> lines{&game.moves};
  for (;; t = read_token()) {
    in_movetext = in_movetext || t.kind != Token::kError;
    switch (t.kind) {
      case Token::kEnd:
      case Token::kTag:
        if (t.kind == Token::kTag) peeked_ = t;  // no result: the next game starts here
        if (lines.size() > 1) return fail(t, "a variation is not closed");
        return Status::kGame;
      case Token::kOpen:
        if (lines.back()->empty()) return fail(t, "a variation before any move");
        if (lines.size() > kMaxVariationDepth) return fail(t, "variations nested too deeply");
        lines.push_back(&lines.back()->back().variations.emplace_back());
        break;
      case Token::kClose:
        if (lines.size() == 1) return fail(t, "')' without '('");
        lines.pop_back();
        break;
      case Token::kNag:
        if (!lines.back()->empty() && !t.text.empty() && t.text.size() < 4)
          lines.back()->back().annotation = nag_annotation(std::stoi(t.text));
        break;
      case Token::kError: return fail(t, t.text);
      case Token::kWord: {
        if (is_result(t.text)) {
          if (lines.size() > 1) break;  // a result inside a variation ends nothing
          game.result = t.text;
          return Status::kGame;
        }
        std::string san = t.text;
        size_t digits = san.find_first_not_of("0123456789");
        if (digits != std::string::npos && digits > 0 && san[digits] == '.') san.erase(0, digits);
        san.erase(0,
                  san.find_first_not_of('.') == std::string::npos ? san.size() : san.find_first_not_of('.'));
        if (san.empty() || san == "e.p.") break;  // a move number, or a note
        const int annotation = strip_suffix(san);
        if (!looks_like_san(san)) return fail(t, "unexpected " + core::quote(t.text));
        lines.back()->push_back({san, t.line, annotation, {}});
        break;
      }
    }
  }
}

std::optional<std::string> replay(const PgnGame& game, const MoveVisitor& visit) {
  std::string fen = game.tag("FEN");
  const std::string variant = game.tag("Variant");
  const bool chess960 = variant.find("960") != std::string::npos || variant == "fischerandom";
  core::Position pos;
  core::StateInfo root;
  if (auto err = pos.set(fen.empty() ? core::Position::kStartFen : fen, root, chess960))
    return "bad FEN tag: " + *err;
  return walk(pos, game.moves, 0, true, visit);
}

std::string write_pgn(const std::vector<std::pair<std::string, std::string>>& tags,
                      const std::string& start_fen, const std::vector<core::Move>& moves,
                      const std::string& result, const std::vector<std::string>& comments) {
  std::string out;
  auto tag = [&out](const std::string& name, const std::string& value) {
    out += "[" + name + " \"";
    for (char c : value) out += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
    out += "\"]\n";
  };
  for (const auto& [name, value] : tags) tag(name, value);
  core::Position pos;
  std::vector<core::StateInfo> states(moves.size() + 1);
  if (pos.set(start_fen, states[0])) return "";
  if (start_fen != core::Position::kStartFen) {
    tag("SetUp", "1");
    tag("FEN", start_fen);
  }
  out += '\n';
  std::string line;
  auto put = [&](const std::string& word) {
    if (!line.empty() && line.size() + 1 + word.size() > 79) {
      out += line + '\n';
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  };
  for (size_t i = 0; i < moves.size(); ++i) {
    const int number = pos.game_ply() / 2 + 1;
    if (pos.side_to_move() == core::WHITE)
      put(std::to_string(number) + ".");
    else if (i == 0)
      put(std::to_string(number) + "...");
    put(core::to_san(pos, moves[i]));
    if (i < comments.size() && !comments[i].empty()) put("{" + comments[i] + "}");
    pos.do_move(moves[i], states[i + 1]);
  }
  put(result);
  return out + line + "\n\n";
}

int points_for(const std::string& result, core::Color side) {
  if (result == "1/2-1/2") return 1;
  if (result == "1-0") return side == core::WHITE ? 2 : 0;
  if (result == "0-1") return side == core::BLACK ? 2 : 0;
  return -1;
}

}  // namespace vblitz::book
