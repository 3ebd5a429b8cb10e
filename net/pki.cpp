#include "net/pki.h"

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <stdexcept>

namespace cara::net {
namespace {

template <class T, void (*Free)(T*)>
struct Deleter {
  void operator()(T* p) const { Free(p); }
};
using Key = std::unique_ptr<EVP_PKEY, Deleter<EVP_PKEY, EVP_PKEY_free>>;
using Cert = std::unique_ptr<X509, Deleter<X509, X509_free>>;
using Bio = std::unique_ptr<BIO, Deleter<BIO, BIO_free_all>>;
using MdCtx = std::unique_ptr<EVP_MD_CTX, Deleter<EVP_MD_CTX, EVP_MD_CTX_free>>;
using StoreCtx = std::unique_ptr<X509_STORE_CTX, Deleter<X509_STORE_CTX, X509_STORE_CTX_free>>;

// The newest OpenSSL error, for messages.
std::string ssl_error() {
  unsigned long code = ERR_get_error();
  ERR_clear_error();
  if (code == 0) return "unknown OpenSSL error";
  char buf[256];
  ERR_error_string_n(code, buf, sizeof buf);
  return buf;
}

Key new_key() {
  return Key(EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256"));
}

Result<Cert> read_cert(const std::string& file) {
  std::FILE* f = std::fopen(file.c_str(), "r");
  if (!f) return Error{file + ": cannot open certificate: " + std::strerror(errno)};
  Cert c(PEM_read_X509(f, nullptr, nullptr, nullptr));
  std::fclose(f);
  if (!c) return Error{file + ": not a PEM certificate (" + ssl_error() + ")"};
  return c;
}

Result<Key> read_key(const std::string& file) {
  std::FILE* f = std::fopen(file.c_str(), "r");
  if (!f) return Error{file + ": cannot open private key: " + std::strerror(errno)};
  Key k(PEM_read_PrivateKey(f, nullptr, nullptr, nullptr));
  std::fclose(f);
  if (!k) return Error{file + ": not a PEM private key (" + ssl_error() + ")"};
  return k;
}

Status write_pem(const std::string& file, bool secret, const std::function<int(std::FILE*)>& write) {
  std::FILE* f = std::fopen(file.c_str(), "w");
  if (!f) return Error{file + ": cannot write"};
  if (secret) ::fchmod(fileno(f), 0600);
  const int ok = write(f);
  if (std::fclose(f) != 0 || !ok) return Error{file + ": write failed (" + ssl_error() + ")"};
  return Ok{};
}

bool add_ext(X509* cert, X509* issuer, int nid, const char* value) {
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
  X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value);
  if (!ext) return false;
  const int ok = X509_add_ext(cert, ext, -1);
  X509_EXTENSION_free(ext);
  return ok == 1;
}

bool random_serial(X509* cert) {
  unsigned char bytes[16];
  if (RAND_bytes(bytes, sizeof bytes) != 1) return false;
  bytes[0] &= 0x7f;  // positive
  BIGNUM* bn = BN_bin2bn(bytes, sizeof bytes, nullptr);
  ASN1_INTEGER* serial = BN_to_ASN1_INTEGER(bn, nullptr);
  BN_free(bn);
  const bool ok = serial && X509_set_serialNumber(cert, serial) == 1;
  ASN1_INTEGER_free(serial);
  return ok;
}

// A certificate for `key`, not yet signed.
Cert new_cert(EVP_PKEY* key, int days) {
  Cert c(X509_new());
  if (!c || X509_set_version(c.get(), 2) != 1 || !random_serial(c.get())) return nullptr;
  X509_gmtime_adj(X509_getm_notBefore(c.get()), -3600);  // tolerate clocks a little apart
  X509_gmtime_adj(X509_getm_notAfter(c.get()), static_cast<long>(days) * 86400);
  if (X509_set_pubkey(c.get(), key) != 1) return nullptr;
  return c;
}

bool set_name(X509_NAME* name, int nid, const std::string& value) {
  return X509_NAME_add_entry_by_NID(name, nid, MBSTRING_UTF8,
                                    reinterpret_cast<const unsigned char*>(value.c_str()), -1, -1, 0) == 1;
}

std::string name_entry(X509_NAME* name, int nid) {
  const int i = X509_NAME_get_index_by_NID(name, nid, -1);
  if (i < 0) return "";
  ASN1_STRING* s = X509_NAME_ENTRY_get_data(X509_NAME_get_entry(name, i));
  unsigned char* utf8 = nullptr;
  const int n = ASN1_STRING_to_UTF8(&utf8, s);
  if (n < 0) return "";
  std::string out(reinterpret_cast<char*>(utf8), static_cast<std::size_t>(n));
  OPENSSL_free(utf8);
  return out;
}

bool is_ip(const std::string& host) {
  return !host.empty() && host.find_first_not_of("0123456789.") == std::string::npos;
}

}  // namespace

Status create_ca(const std::string& dir, const std::string& name, int days) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return Error{dir + ": cannot create directory (" + ec.message() + ")"};
  if (fs::exists(dir + "/ca.key")) return Error{dir + "/ca.key exists; refusing to replace the pool CA"};
  Key key = new_key();
  if (!key) return Error{"cannot generate a key (" + ssl_error() + ")"};
  Cert cert = new_cert(key.get(), days);
  if (!cert) return Error{"cannot build the CA certificate (" + ssl_error() + ")"};
  X509_NAME* subject = X509_get_subject_name(cert.get());
  if (!set_name(subject, NID_commonName, name)) return Error{"bad CA name '" + name + "'"};
  X509_set_issuer_name(cert.get(), subject);
  if (!add_ext(cert.get(), cert.get(), NID_basic_constraints, "critical,CA:TRUE") ||
      !add_ext(cert.get(), cert.get(), NID_key_usage, "critical,keyCertSign,cRLSign") ||
      !add_ext(cert.get(), cert.get(), NID_subject_key_identifier, "hash") ||
      X509_sign(cert.get(), key.get(), EVP_sha256()) == 0)
    return Error{"cannot sign the CA certificate (" + ssl_error() + ")"};
  if (auto s = write_pem(dir + "/ca.key", true,
                         [&](std::FILE* f) {
                           return PEM_write_PrivateKey(f, key.get(), nullptr, nullptr, 0, nullptr, nullptr);
                         });
      !s)
    return s;
  return write_pem(dir + "/ca.pem", false, [&](std::FILE* f) { return PEM_write_X509(f, cert.get()); });
}

Status issue_certificate(const std::string& ca_dir, const std::string& out, const CertificateSpec& spec) {
  if (spec.host.empty() || spec.host.find_first_of(" /,\"") != std::string::npos)
    return Error{"bad host name '" + spec.host + "': expected a DNS name or an IP address"};
  if (spec.user.find('@') == std::string::npos || spec.user.find_first_of(" /,\"") != std::string::npos)
    return Error{"bad user '" + spec.user + "': expected name@domain"};
  auto ca = read_cert(ca_dir + "/ca.pem");
  if (!ca) return Error{ca.error()};
  auto ca_key = read_key(ca_dir + "/ca.key");
  if (!ca_key) return Error{ca_key.error()};
  Key key = new_key();
  if (!key) return Error{"cannot generate a key (" + ssl_error() + ")"};
  Cert cert = new_cert(key.get(), spec.days);
  if (!cert) return Error{"cannot build the certificate (" + ssl_error() + ")"};
  X509_NAME* subject = X509_get_subject_name(cert.get());
  if (!set_name(subject, NID_commonName, spec.host) || !set_name(subject, NID_userId, spec.user))
    return Error{"cannot name the certificate (" + ssl_error() + ")"};
  X509_set_issuer_name(cert.get(), X509_get_subject_name(ca->get()));
  const std::string san = (is_ip(spec.host) ? "IP:" : "DNS:") + spec.host;
  if (!add_ext(cert.get(), ca->get(), NID_basic_constraints, "critical,CA:FALSE") ||
      !add_ext(cert.get(), ca->get(), NID_key_usage, "critical,digitalSignature,keyEncipherment") ||
      !add_ext(cert.get(), ca->get(), NID_ext_key_usage, "serverAuth,clientAuth") ||
      !add_ext(cert.get(), ca->get(), NID_subject_alt_name, san.c_str()) ||
      X509_sign(cert.get(), ca_key->get(), EVP_sha256()) == 0)
    return Error{"cannot sign the certificate for " + spec.host + " (" + ssl_error() + ")"};
  if (auto s = write_pem(out + ".key", true,
                         [&](std::FILE* f) {
                           return PEM_write_PrivateKey(f, key.get(), nullptr, nullptr, 0, nullptr, nullptr);
                         });
      !s)
    return s;
  return write_pem(out + ".pem", false, [&](std::FILE* f) { return PEM_write_X509(f, cert.get()); });
}

Result<Credentials> Credentials::load(const std::string& certificate_file, const std::string& key_file) {
  auto cert = read_cert(certificate_file);
  if (!cert) return Error{cert.error()};
  auto key = read_key(key_file);
  if (!key) return Error{key.error()};
  if (X509_check_private_key(cert->get(), key->get()) != 1)
    return Error{key_file + ": this key does not belong to " + certificate_file};
  Bio bio(BIO_new(BIO_s_mem()));
  PEM_write_bio_X509(bio.get(), cert->get());
  char* data = nullptr;
  const long n = BIO_get_mem_data(bio.get(), &data);
  Credentials c;
  c.pem_.assign(data, static_cast<std::size_t>(n));
  c.key_ = std::shared_ptr<void>(key->release(), [](void* p) { EVP_PKEY_free(static_cast<EVP_PKEY*>(p)); });
  return c;
}

Result<std::string> Credentials::sign(std::string_view data) const {
  MdCtx ctx(EVP_MD_CTX_new());
  auto* key = static_cast<EVP_PKEY*>(key_.get());
  std::size_t len = 0;
  if (!ctx || EVP_DigestSignInit(ctx.get(), nullptr, EVP_sha256(), nullptr, key) != 1 ||
      EVP_DigestSign(ctx.get(), nullptr, &len, reinterpret_cast<const unsigned char*>(data.data()),
                     data.size()) != 1)
    return Error{"cannot sign (" + ssl_error() + ")"};
  std::string sig(len, '\0');
  if (EVP_DigestSign(ctx.get(), reinterpret_cast<unsigned char*>(sig.data()), &len,
                     reinterpret_cast<const unsigned char*>(data.data()), data.size()) != 1)
    return Error{"cannot sign (" + ssl_error() + ")"};
  sig.resize(len);
  return sig;
}

Result<TrustAnchor> TrustAnchor::load(const std::string& ca_file) {
  auto ca = read_cert(ca_file);
  if (!ca) return Error{ca.error()};
  X509_STORE* store = X509_STORE_new();
  if (!store || X509_STORE_add_cert(store, ca->get()) != 1) {
    X509_STORE_free(store);
    return Error{ca_file + ": cannot use as a trust anchor (" + ssl_error() + ")"};
  }
  TrustAnchor t;
  t.store_ = std::shared_ptr<void>(store, [](void* p) { X509_STORE_free(static_cast<X509_STORE*>(p)); });
  return t;
}

Result<Identity> TrustAnchor::verify(const std::string& certificate_pem, std::string_view data,
                                     std::string_view signature) const {
  Bio bio(BIO_new_mem_buf(certificate_pem.data(), static_cast<int>(certificate_pem.size())));
  Cert cert(PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr));
  if (!cert) return Error{"the peer's certificate is not a PEM certificate"};
  StoreCtx ctx(X509_STORE_CTX_new());
  if (!ctx ||
      X509_STORE_CTX_init(ctx.get(), static_cast<X509_STORE*>(store_.get()), cert.get(), nullptr) != 1)
    return Error{"cannot check the peer's certificate (" + ssl_error() + ")"};
  if (X509_verify_cert(ctx.get()) != 1)
    return Error{std::string("the peer's certificate is not one of the pool CA: ") +
                 X509_verify_cert_error_string(X509_STORE_CTX_get_error(ctx.get()))};
  MdCtx md(EVP_MD_CTX_new());
  if (!md ||
      EVP_DigestVerifyInit(md.get(), nullptr, EVP_sha256(), nullptr, X509_get0_pubkey(cert.get())) != 1 ||
      EVP_DigestVerify(md.get(), reinterpret_cast<const unsigned char*>(signature.data()), signature.size(),
                       reinterpret_cast<const unsigned char*>(data.data()), data.size()) != 1) {
    ERR_clear_error();
    return Error{"the peer's signature does not match its certificate"};
  }
  X509_NAME* subject = X509_get_subject_name(cert.get());
  Identity id{name_entry(subject, NID_userId), name_entry(subject, NID_commonName)};
  if (id.user.empty() || id.host.empty())
    return Error{"the peer's certificate names no user (UID) or host (CN)"};
  return id;
}

std::string random_bytes(std::size_t n) {
  std::string out(n, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(out.data()), static_cast<int>(n)) != 1)
    throw std::runtime_error("OpenSSL's random generator failed");
  return out;
}

}  // namespace cara::net
