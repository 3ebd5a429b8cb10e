#include "model/node/master_ad.h"

namespace cara::node {

classad::ClassAd master_ad(const std::string& name, const std::string& address,
                           const std::vector<std::string>& daemons, const std::vector<std::string>& running,
                           std::int64_t sequence) {
  classad::ClassAd ad;
  ad.set("MyType", "DaemonMaster");
  ad.set("Name", name);
  ad.set("Machine", name);
  ad.set("MyAddress", address);
  ad.set("MasterIpAddr", address);
  std::string list = "MASTER";
  for (const std::string& d : daemons) list += ", " + d;
  ad.set("DaemonList", list);
  std::string up = "MASTER";
  for (const std::string& d : running) up += ", " + d;
  ad.set("DaemonsRunning", up);
  ad.set("UpdateSequenceNumber", sequence);
  return ad;
}

}  // namespace cara::node
