// Group commit (DESIGN.md "State and durability"): changes are marked as
// they are made, what follows from them (a reply, a claim action) waits
// for the commit that stores them, and every change made before a commit
// shares its one synced write, so many clients' submits cost one fsync.
// What waits runs in the order it was given; one that changes again is
// stored before the next runs. No CAF here: the schedd decides when to
// commit (a message to itself, after the submits already in its mailbox).
#pragma once

#include <deque>
#include <functional>
#include <utility>

namespace cara::actors {

class CommitQueue {
 public:
  // `save` stores every change made since it last ran; false: the store
  // failed, and nothing that waits may run.
  explicit CommitQueue(std::function<bool()> save) : save_(std::move(save)) {}

  void changed() { unsaved_ = true; }
  // Changes or waiting work a commit would act on.
  bool pending() const { return unsaved_ || !waiting_.empty(); }

  // Runs `then` at once when nothing is pending, else after the commit.
  void after(std::function<void()> then);

  // Saves, then runs what waits; false when a save failed (what waited is
  // dropped, never run).
  bool commit();

  std::size_t saves() const { return saves_; }

 private:
  std::function<bool()> save_;
  bool unsaved_ = false;
  std::deque<std::function<void()>> waiting_;
  std::size_t saves_ = 0;
};

}  // namespace cara::actors
