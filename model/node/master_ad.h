// The master's ad (condor_status -master), under HTCondor's attribute
// names: MyType "DaemonMaster", Name and Machine (the node's host name),
// MyAddress and MasterIpAddr (where the master listens), DaemonList
// ("MASTER" and the daemons it keeps) and UpdateSequenceNumber. The master
// actor only sends it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/classad/classad.h"

namespace cara::node {

classad::ClassAd master_ad(const std::string& name, const std::string& address,
                           const std::vector<std::string>& daemons, std::int64_t sequence);

}  // namespace cara::node
