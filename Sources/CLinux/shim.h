/* The Linux headers Glibc's Swift module leaves out: epoll, eventfd and TCP options. */
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>

/* Declared by <sys/socket.h> only under _GNU_SOURCE, which the Glibc module is built without. */
extern int accept4(int socket, struct sockaddr *address, socklen_t *length, int flags);
