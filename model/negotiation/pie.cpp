#include "model/negotiation/pie.h"

namespace cara::negotiation {

std::vector<double> pie_slices(double pie, const std::vector<double>& eups) {
  double inverse_sum = 0;
  for (double e : eups) inverse_sum += 1.0 / e;
  std::vector<double> out;
  out.reserve(eups.size());
  for (double e : eups) out.push_back(inverse_sum > 0 ? pie * (1.0 / e) / inverse_sum : 0);
  return out;
}

}  // namespace cara::negotiation
