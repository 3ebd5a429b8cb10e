// OpenSSL's error queue, kept empty before every TLS read, write and
// handshake step that CAF's openssl module makes.
//
// Why: OpenSSL documents that SSL_get_error() is only meaningful when the
// calling thread's error queue was empty before the I/O call. CAF 0.17.6's
// openssl session never clears it. When one peer dies, its connection leaves
// "unexpected eof while reading" in the multiplexer thread's queue; the next
// read on any other connection that merely would block then looks like a
// fatal SSL error, and CAF closes that healthy connection too. Killing one
// node thereby cut every connection of every node that talked to it (found
// with the kill -9 test of issue 6). This unit interposes SSL_read,
// SSL_write, SSL_connect and SSL_accept in the executable: each clears the
// queue and calls OpenSSL's own function.
#pragma once

namespace cara::net {

// True when the interposed functions are the ones the process calls (the
// executable links this unit); calling it also keeps the unit linked in.
bool tls_error_queue_guarded();

}  // namespace cara::net
