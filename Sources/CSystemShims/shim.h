#ifndef MOCKAPNS_CSYSTEMSHIMS_SHIM_H
#define MOCKAPNS_CSYSTEMSHIMS_SHIM_H
// Linux event-loop and socket facilities whose macros, flag unions or packed structs Swift imports awkwardly
// (epoll, eventfd, sockets). Header-only: the functions are in libc.
#include <stdint.h>
#include <sys/types.h>
#include <pthread.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

static inline uint32_t csystem_EPOLLIN(void) { return EPOLLIN; }
static inline uint32_t csystem_EPOLLOUT(void) { return EPOLLOUT; }
static inline uint32_t csystem_EPOLLERR(void) { return EPOLLERR; }
static inline uint32_t csystem_EPOLLHUP(void) { return EPOLLHUP; }
static inline int csystem_EFD_NONBLOCK_CLOEXEC(void) { return EFD_NONBLOCK | EFD_CLOEXEC; }
static inline int csystem_SOCK_STREAM_NONBLOCK_CLOEXEC(void) { return SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC; }
static inline int csystem_SOCK_NONBLOCK_CLOEXEC(void) { return SOCK_NONBLOCK | SOCK_CLOEXEC; }
static inline int csystem_MSG_NOSIGNAL(void) { return MSG_NOSIGNAL; }
/// accept4 is a GNU extension the Glibc module does not export without _GNU_SOURCE.
static inline int csystem_accept4(int fd, struct sockaddr *address, socklen_t *length, int flags) {
    extern int accept4(int, struct sockaddr *, socklen_t *, int);
    return accept4(fd, address, length, flags);
}

/// Names the calling thread (at most 15 bytes are kept): pthread_setname_np is a GNU extension the Glibc module
/// does not export without _GNU_SOURCE.
static inline int csystem_set_thread_name(const char *name) {
    extern int pthread_setname_np(pthread_t, const char *);
    return pthread_setname_np(pthread_self(), name);
}

/// epoll_event is packed on x86_64; these accessors keep Swift away from its layout.
static inline int csystem_epoll_ctl(int epfd, int op, int fd, uint32_t events) {
    struct epoll_event ev;
    ev.events = events;
    ev.data.u64 = 0;
    ev.data.fd = fd;
    return epoll_ctl(epfd, op, fd, &ev);
}
static inline int csystem_epoll_wait(int epfd, int *fds, uint32_t *events, int max, int timeout) {
    struct epoll_event evs[256];
    if (max > 256) max = 256;
    int n = epoll_wait(epfd, evs, max, timeout);
    for (int i = 0; i < n; i++) { fds[i] = evs[i].data.fd; events[i] = evs[i].events; }
    return n;
}
#endif
