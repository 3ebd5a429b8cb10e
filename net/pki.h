// The pool's public-key infrastructure, with OpenSSL's API: `cara keygen`
// creates a pool CA and certificates signed by it; a node or a tool signs
// a challenge with its key (Credentials), and the peer checks the
// certificate against the pool CA and the signature against the
// certificate (TrustAnchor). CAF's TLS layer accepts any certificate of the
// CA and does not show it to the application (STACK-NOTES.md), so this is
// how a peer's identity — its user and host — is proven for ALLOW_*.
//
// A certificate names its host in the subject's CN (and subjectAltName)
// and its user in the subject's UID: "condor@<domain>" for daemons,
// "<name>@<domain>" for people.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "model/common/result.h"
#include "net/authorization.h"

namespace cara::net {

// Writes DIR/ca.pem and DIR/ca.key (mode 0600), a self-signed CA named
// `name`, valid `days` days. Refuses to overwrite an existing CA.
Status create_ca(const std::string& dir, const std::string& name, int days);

struct CertificateSpec {
  std::string host;             // CN and subjectAltName (DNS name or IP address)
  std::string user = "condor";  // UID; "condor@..." marks a daemon
  int days = 825;
};
// Writes OUT.pem and OUT.key (mode 0600): a certificate for `spec` signed
// by the CA in CA_DIR (ca.pem, ca.key).
Status issue_certificate(const std::string& ca_dir, const std::string& out, const CertificateSpec& spec);

// A certificate and its private key, for proving who we are.
class Credentials {
 public:
  static Result<Credentials> load(const std::string& certificate_file, const std::string& key_file);
  const std::string& certificate_pem() const { return pem_; }
  // The signature of `data` (SHA-256) with the private key.
  Result<std::string> sign(std::string_view data) const;

 private:
  std::string pem_;
  std::shared_ptr<void> key_;  // EVP_PKEY
};

// The pool CA, for checking a peer's proof.
class TrustAnchor {
 public:
  static Result<TrustAnchor> load(const std::string& ca_file);
  // The identity in `certificate_pem` when the pool CA signed it, it is in
  // its validity period, and `signature` is its key's signature of `data`.
  Result<Identity> verify(const std::string& certificate_pem, std::string_view data,
                          std::string_view signature) const;

 private:
  std::shared_ptr<void> store_;  // X509_STORE
};

// `n` random bytes from OpenSSL's generator.
std::string random_bytes(std::size_t n);

}  // namespace cara::net
