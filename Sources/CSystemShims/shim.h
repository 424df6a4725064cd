#ifndef MOCKAPNS_CSYSTEMSHIMS_SHIM_H
#define MOCKAPNS_CSYSTEMSHIMS_SHIM_H
// Socket and event-loop facilities whose macros, flag unions or packed structs Swift imports awkwardly, with the
// platform difference kept here: each function has its Linux body and its Darwin (POSIX) body side by side, so the
// Swift callers are the same on both. Header-only: the functions are in libc.
#include <stdint.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/types.h>
#include <sys/resource.h>
#include <pthread.h>
#include <poll.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#if defined(__linux__)
#include <sys/epoll.h>
#include <sys/eventfd.h>
#endif

/// Readiness bits as the event loop uses them (the values of POLLIN/POLLOUT/POLLERR/POLLHUP on Linux, which are
/// also EPOLLIN/EPOLLOUT/EPOLLERR/EPOLLHUP): the pollers translate their platform's bits into these.
enum {
    CSYSTEM_IO_INPUT = 0x001,
    CSYSTEM_IO_OUTPUT = 0x004,
    CSYSTEM_IO_ERROR = 0x008,
    CSYSTEM_IO_HANGUP = 0x010,
};

/// Sets O_NONBLOCK and FD_CLOEXEC (and, on Darwin, SO_NOSIGPIPE, its stand-in for MSG_NOSIGNAL).
static inline int csystem_make_nonblocking_socket(int fd) {
    int flags = fcntl(fd, F_GETFL, 0);
    if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) != 0) return -1;
    if (fcntl(fd, F_SETFD, FD_CLOEXEC) != 0) return -1;
#if defined(__APPLE__)
    int one = 1;
    (void)setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, sizeof(one));
#endif
    return 0;
}

/// A non-blocking, close-on-exec stream socket (one call on Linux; socket + fcntl elsewhere).
static inline int csystem_stream_socket(int family) {
#if defined(__linux__)
    return socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
#else
    int fd = socket(family, SOCK_STREAM, 0);
    if (fd < 0) return -1;
    if (csystem_make_nonblocking_socket(fd) != 0) { int saved = errno; close(fd); errno = saved; return -1; }
    return fd;
#endif
}

/// Accepts a connection as a non-blocking, close-on-exec socket (accept4 on Linux, a GNU extension the Glibc
/// module does not export without _GNU_SOURCE; accept + fcntl elsewhere).
static inline int csystem_accept_nonblocking(int fd, struct sockaddr *address, socklen_t *length) {
#if defined(__linux__)
    extern int accept4(int, struct sockaddr *, socklen_t *, int);
    return accept4(fd, address, length, SOCK_NONBLOCK | SOCK_CLOEXEC);
#else
    int accepted = accept(fd, address, length);
    if (accepted < 0) return -1;
    if (csystem_make_nonblocking_socket(accepted) != 0) { int saved = errno; close(accepted); errno = saved; return -1; }
    return accepted;
#endif
}

/// send() that reports a closed peer as EPIPE instead of raising SIGPIPE (MSG_NOSIGNAL on Linux; the socket's
/// SO_NOSIGPIPE, set when it was made, on Darwin).
static inline ssize_t csystem_send(int fd, const void *buffer, size_t count) {
#if defined(__linux__)
    return send(fd, buffer, count, MSG_NOSIGNAL);
#else
    return send(fd, buffer, count, 0);
#endif
}

/// SOCK_STREAM as an int (an enum case in Glibc's Swift overlay, a macro on Darwin).
static inline int csystem_sock_stream(void) { return SOCK_STREAM; }

/// The soft limit on open descriptors (RLIMIT_NOFILE), or -1 when unknown or unlimited.
static inline long long csystem_open_files_limit(void) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return -1;
    return (long long)limit.rlim_cur;
}

/// Names the calling thread (at most 15 bytes are kept on Linux): pthread_setname_np is a GNU extension the Glibc
/// module does not export without _GNU_SOURCE; Darwin's names only the calling thread.
static inline int csystem_set_thread_name(const char *name) {
#if defined(__linux__)
    extern int pthread_setname_np(pthread_t, const char *);
    return pthread_setname_np(pthread_self(), name);
#else
    return pthread_setname_np(name);
#endif
}

/// Threads as integer handles: pthread_t is an integer on Linux and a pointer on Darwin, and Swift imports
/// pthread_create's signature differently on each; these four are the same on both.
static inline int csystem_thread_start(void *(*body)(void *), void *context, uintptr_t *handle) {
    pthread_t thread;
    int rc = pthread_create(&thread, NULL, body, context);
    if (rc == 0) *handle = (uintptr_t)thread;
    return rc;
}
static inline int csystem_thread_join(uintptr_t handle) { return pthread_join((pthread_t)handle, NULL); }
static inline int csystem_thread_detach(uintptr_t handle) { return pthread_detach((pthread_t)handle); }
static inline uintptr_t csystem_thread_self(void) { return (uintptr_t)pthread_self(); }

/// A pipe whose two ends are non-blocking and close-on-exec: the portable loop's wake-up channel.
static inline int csystem_wake_pipe(int ends[2]) {
    if (pipe(ends) != 0) return -1;
    for (int i = 0; i < 2; i++) {
        int flags = fcntl(ends[i], F_GETFL, 0);
        if (flags < 0 || fcntl(ends[i], F_SETFL, flags | O_NONBLOCK) != 0 || fcntl(ends[i], F_SETFD, FD_CLOEXEC) != 0) {
            int saved = errno; close(ends[0]); close(ends[1]); errno = saved; return -1;
        }
    }
    return 0;
}

/// poll(2) over `count` descriptors with their wanted events (CSYSTEM_IO_* bits); `revents` receives what is ready,
/// in the same bits. Kept here so Swift never lays out `struct pollfd` or the platforms' POLL* values itself.
static inline int csystem_poll(struct pollfd *fds, unsigned int count, int timeout) {
    return poll(fds, (nfds_t)count, timeout);
}
static inline short csystem_poll_events(uint32_t io) {
    short events = 0;
    if (io & CSYSTEM_IO_INPUT) events |= POLLIN;
    if (io & CSYSTEM_IO_OUTPUT) events |= POLLOUT;
    return events;
}
static inline uint32_t csystem_io_from_poll(short revents) {
    uint32_t io = 0;
    if (revents & POLLIN) io |= CSYSTEM_IO_INPUT;
    if (revents & POLLOUT) io |= CSYSTEM_IO_OUTPUT;
    if (revents & (POLLERR | POLLNVAL)) io |= CSYSTEM_IO_ERROR;
    if (revents & POLLHUP) io |= CSYSTEM_IO_HANGUP;
    return io;
}

#if defined(__linux__)
/// An eventfd for waking the epoll loop.
static inline int csystem_eventfd(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }
static inline int csystem_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

static inline uint32_t csystem_epoll_from_io(uint32_t io) {
    uint32_t events = 0;
    if (io & CSYSTEM_IO_INPUT) events |= EPOLLIN;
    if (io & CSYSTEM_IO_OUTPUT) events |= EPOLLOUT;
    return events;
}

/// epoll_event is packed on x86_64; these accessors keep Swift away from its layout.
static inline int csystem_epoll_ctl(int epfd, int op, int fd, uint32_t io) {
    struct epoll_event ev;
    ev.events = csystem_epoll_from_io(io);
    ev.data.u64 = 0;
    ev.data.fd = fd;
    return epoll_ctl(epfd, op, fd, &ev);
}
static inline int csystem_epoll_add(int epfd, int fd, uint32_t io) { return csystem_epoll_ctl(epfd, EPOLL_CTL_ADD, fd, io); }
static inline int csystem_epoll_modify(int epfd, int fd, uint32_t io) { return csystem_epoll_ctl(epfd, EPOLL_CTL_MOD, fd, io); }
static inline int csystem_epoll_remove(int epfd, int fd) { return csystem_epoll_ctl(epfd, EPOLL_CTL_DEL, fd, 0); }

/// Waits and reports each ready descriptor with its events in CSYSTEM_IO_* bits.
static inline int csystem_epoll_wait(int epfd, int *fds, uint32_t *events, int max, int timeout) {
    struct epoll_event evs[256];
    if (max > 256) max = 256;
    int n = epoll_wait(epfd, evs, max, timeout);
    for (int i = 0; i < n; i++) {
        uint32_t e = evs[i].events, io = 0;
        if (e & EPOLLIN) io |= CSYSTEM_IO_INPUT;
        if (e & EPOLLOUT) io |= CSYSTEM_IO_OUTPUT;
        if (e & EPOLLERR) io |= CSYSTEM_IO_ERROR;
        if (e & EPOLLHUP) io |= CSYSTEM_IO_HANGUP;
        fds[i] = evs[i].data.fd;
        events[i] = io;
    }
    return n;
}
#endif
#endif
