// cara-pool's link to a schedd of the pool (schedd_link.h): the schedd
// named by -name (this node's SCHEDD_NAME by default) is found in the
// collector of -pool's central manager (COLLECTOR_HOST by default), its
// node joined over TLS with the tool's client certificate, and each
// request taken as this node's socket front end takes it: the schedd
// knows the asker by the certificate, not by what the request says.
#pragma once

#include "apps/commands/schedd_link.h"

namespace cara::apps {

std::optional<ScheddLink> remote_schedd(const config::Config& cfg, const ScheddTarget& target,
                                        const std::string& tool, std::ostream& err, int& rc);

}  // namespace cara::apps
