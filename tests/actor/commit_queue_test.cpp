// Group commit (actors/commit_queue.h): the changes made before a commit
// share one save, what waits runs after it in order, and nothing waiting
// runs when the save fails (issue 21: a submit must not cost one fsync per
// job; nothing unstored is acknowledged).
#include "actors/commit_queue.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

using cara::actors::CommitQueue;

TEST_CASE("submits staged before a commit share one save and are answered after it", "[actors][commit]") {
  std::vector<std::string> seen;
  CommitQueue q([&] {
    seen.push_back("save");
    return true;
  });
  // Nothing changed: work runs at once.
  q.after([&] { seen.push_back("query"); });
  CHECK(seen == std::vector<std::string>{"query"});
  seen.clear();
  for (int client = 0; client < 16; ++client) {
    q.changed();
    q.after([&, client] { seen.push_back("ack " + std::to_string(client)); });
  }
  CHECK(seen.empty());  // no acknowledgement before the save
  CHECK(q.pending());
  REQUIRE(q.commit());
  REQUIRE(seen.size() == 17);
  CHECK(seen[0] == "save");
  for (int client = 0; client < 16; ++client) CHECK(seen[1 + client] == "ack " + std::to_string(client));
  CHECK(q.saves() == 1);
  CHECK_FALSE(q.pending());
  // Nothing to save: a commit saves nothing.
  REQUIRE(q.commit());
  CHECK(q.saves() == 1);
}

TEST_CASE("work that changes the queue again is saved before the next work runs", "[actors][commit]") {
  std::vector<std::string> seen;
  CommitQueue q([&] {
    seen.push_back("save");
    return true;
  });
  q.changed();
  q.after([&] {
    seen.push_back("job ended");
    q.changed();  // the claim model requeued a job
    q.after([&] { seen.push_back("release slot"); });
  });
  q.after([&] { seen.push_back("reply"); });
  REQUIRE(q.commit());
  // The reply was given before the release was asked for, and both only
  // after the change each follows from was saved.
  CHECK(seen == std::vector<std::string>{"save", "job ended", "save", "reply", "release slot"});
}

TEST_CASE("a failed save runs nothing that waited", "[actors][commit]") {
  int ran = 0;
  CommitQueue q([] { return false; });
  q.changed();
  q.after([&] { ++ran; });
  CHECK_FALSE(q.commit());
  CHECK(ran == 0);
  CHECK_FALSE(q.pending());
}
