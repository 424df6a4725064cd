#ifndef MOCKAPNS_CNGHTTP2_SHIM_H
#define MOCKAPNS_CNGHTTP2_SHIM_H
// nghttp2 1.52 (Debian bookworm). Only what Swift cannot import directly lives here,
// plus the few Linux event-loop constants whose enum imports are awkward in Swift.
#include <nghttp2/nghttp2.h>
#include <sys/types.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

/// The client connection preface ("PRI * HTTP/2.0...") as bytes; the C macro is a string literal.
static inline const char *cnghttp2_client_magic(void) { return NGHTTP2_CLIENT_MAGIC; }
static inline size_t cnghttp2_client_magic_len(void) { return NGHTTP2_CLIENT_MAGIC_LEN; }

static inline uint32_t cnghttp2_EPOLLIN(void) { return EPOLLIN; }
static inline uint32_t cnghttp2_EPOLLOUT(void) { return EPOLLOUT; }
static inline uint32_t cnghttp2_EPOLLERR(void) { return EPOLLERR; }
static inline uint32_t cnghttp2_EPOLLHUP(void) { return EPOLLHUP; }
static inline int cnghttp2_EFD_NONBLOCK_CLOEXEC(void) { return EFD_NONBLOCK | EFD_CLOEXEC; }
static inline int cnghttp2_SOCK_STREAM_NONBLOCK_CLOEXEC(void) { return SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC; }
static inline int cnghttp2_SOCK_NONBLOCK_CLOEXEC(void) { return SOCK_NONBLOCK | SOCK_CLOEXEC; }
static inline int cnghttp2_MSG_NOSIGNAL(void) { return MSG_NOSIGNAL; }
/// accept4 is a GNU extension the Glibc module does not export without _GNU_SOURCE.
static inline int cnghttp2_accept4(int fd, struct sockaddr *address, socklen_t *length, int flags) {
    extern int accept4(int, struct sockaddr *, socklen_t *, int);
    return accept4(fd, address, length, flags);
}

/// epoll_event is packed on x86_64; these accessors keep Swift away from its layout.
static inline int cnghttp2_epoll_ctl(int epfd, int op, int fd, uint32_t events) {
    struct epoll_event ev;
    ev.events = events;
    ev.data.u64 = 0;
    ev.data.fd = fd;
    return epoll_ctl(epfd, op, fd, &ev);
}
static inline int cnghttp2_epoll_wait(int epfd, int *fds, uint32_t *events, int max, int timeout) {
    struct epoll_event evs[256];
    if (max > 256) max = 256;
    int n = epoll_wait(epfd, evs, max, timeout);
    for (int i = 0; i < n; i++) { fds[i] = evs[i].data.fd; events[i] = evs[i].events; }
    return n;
}
#endif
