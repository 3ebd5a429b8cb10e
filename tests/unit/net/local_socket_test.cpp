// The local socket (net/local_socket.h): one request, progress notes, then
// the answer; the kernel's word for the caller.
#include "net/local_socket.h"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/support/scratch.h"

using namespace cara;

TEST_CASE("a local call hears the server's progress notes in order, then its answer", "[net][local]") {
  cara::scratch::TempDir dir{"local"};
  const std::string path = (dir.path / "s.sock").string();
  net::LocalServer server;
  REQUIRE(server.start(path,
                       [](const nlohmann::json& request, const net::LocalPeer& peer,
                          const net::ProgressNote& note) -> nlohmann::json {
                         if (request.value("progress", false))
                           for (int i = 1; i <= 3; ++i) note({{"built", i}, {"total", 3}});
                         return {{"ok", true}, {"uid", peer.uid}};
                       }));
  std::vector<std::int64_t> heard;
  auto reply =
      net::local_call(path, {{"progress", true}}, std::chrono::seconds(5),
                      [&](const nlohmann::json& n) { heard.push_back(n.value("built", std::int64_t{-1})); });
  REQUIRE(reply);
  CHECK(heard == std::vector<std::int64_t>{1, 2, 3});
  CHECK(reply->value("ok", false));
  CHECK(reply->value("uid", 12345u) == static_cast<unsigned>(::getuid()));  // the kernel's word
  // A caller that asks for no notes gets none, only the answer; one that
  // asks without listening gets the answer all the same.
  heard.clear();
  reply = net::local_call(path, {{"progress", false}}, std::chrono::seconds(5),
                          [&](const nlohmann::json&) { heard.push_back(0); });
  REQUIRE(reply);
  CHECK(heard.empty());
  reply = net::local_call(path, {{"progress", true}}, std::chrono::seconds(5));
  REQUIRE(reply);
  CHECK(reply->value("ok", false));
}

TEST_CASE("large requests and answers cross the local socket whole, in pieces", "[net][local]") {
  // Far more than a socket's buffer: the writer waits for the reader and
  // goes on where the last write stopped, both ways.
  cara::scratch::TempDir dir{"local"};
  const std::string path = (dir.path / "s.sock").string();
  net::LocalServer server;
  REQUIRE(server.start(path,
                       [](const nlohmann::json& request, const net::LocalPeer&,
                          const net::ProgressNote& note) -> nlohmann::json {
                         const std::string text = request.value("text", "");
                         note({{"got", text.size()}});
                         std::string back(text.rbegin(), text.rend());
                         return {{"text", back}, {"size", text.size()}};
                       }));
  std::string big;
  big.reserve(9 << 20);
  for (std::size_t i = 0; big.size() < (9u << 20); ++i) big += std::to_string(i * 7919 % 1000003) + ",";
  std::size_t noted = 0;
  auto reply = net::local_call(path, {{"text", big}}, std::chrono::seconds(60),
                               [&](const nlohmann::json& n) { noted = n.value("got", std::size_t{0}); });
  REQUIRE(reply);
  CHECK(noted == big.size());
  CHECK(reply->value("size", std::size_t{0}) == big.size());
  CHECK(reply->value("text", std::string()) == std::string(big.rbegin(), big.rend()));
  // An empty request frame and a small one after the large ones.
  reply = net::local_call(path, nlohmann::json::object(), std::chrono::seconds(5));
  REQUIRE(reply);
  CHECK(reply->value("size", std::size_t{1}) == 0);
}
