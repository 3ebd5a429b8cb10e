#include "model/claim/leftovers.h"

#include "model/classad/eval.h"

namespace cara::claim {

bool offers_leftovers(const LeftoverCase& c, const classad::ClassAd& pslot) {
  if (!c.asked || !c.granted || !c.carved || pslot.find("ConsumptionCpus")) return false;
  double cpus = 0, memory = 0;
  return classad::evaluate_attr(pslot, "Cpus").number(cpus) && cpus >= 1 &&
         classad::evaluate_attr(pslot, "Memory").number(memory) && memory > 0;
}

}  // namespace cara::claim
