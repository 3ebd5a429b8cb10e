// The master's ad (condor_status -master), under HTCondor's attribute
// names: MyType "DaemonMaster", Name and Machine (the node's host name),
// MyAddress and MasterIpAddr (where the master listens), DaemonList
// ("MASTER" and the daemons it keeps) and UpdateSequenceNumber. The master
// actor only sends it. DaemonsRunning (a caracara attribute: HTCondor's
// master ad has no such list) names those of DaemonList up now: one that
// died and waits for its restart, or is off (condor_off -daemon), is not in
// it; the web endpoint's daemon up/down gauge reads it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/classad/classad.h"

namespace cara::node {

classad::ClassAd master_ad(const std::string& name, const std::string& address,
                           const std::vector<std::string>& daemons, const std::vector<std::string>& running,
                           std::int64_t sequence);

}  // namespace cara::node
