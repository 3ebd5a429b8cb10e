// A pool's secrets in one idempotent step, for containers and scripted
// pools (`cara keygen pool`): the pool CA, kept where only the key maker
// sees it, and what every node mounts — the CA certificate and a node
// certificate signed by it. Run at every start of a pool (compose's
// one-shot keygen service): what exists and is valid is kept, what is
// missing or no longer belongs to the CA is made again.
#pragma once

#include <string>
#include <vector>

#include "model/common/result.h"

namespace cara::net {

struct PoolSecretsSpec {
  std::string ca_dir;   // ca.pem, ca.key
  std::string out_dir;  // ca.pem (a copy), node.pem, node.key
  std::string user = "condor@caracara.pool";
  std::string host = "node";
  std::string ca_name = "caracara pool CA";
  int days = 825;
};

// One line per file: made, kept, or made again and why.
Result<std::vector<std::string>> ensure_pool_secrets(const PoolSecretsSpec& spec);

}  // namespace cara::net
