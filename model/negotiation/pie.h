// Pie slices (user-priorities-and-negotiation, "The Layperson's
// Description of the Pie Spin and Pie Slice"): the SlotWeight a pie holds
// is shared among its submitters in inverse ratio to their effective user
// priorities — EUPs 5, 10 and 20 share 7 slots as 4, 2 and 1.
#pragma once

#include <vector>

namespace cara::negotiation {

// Each submitter's share of `pie`, from their EUPs (all positive).
std::vector<double> pie_slices(double pie, const std::vector<double>& eups);

}  // namespace cara::negotiation
