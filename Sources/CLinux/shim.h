/* The Linux headers Glibc's Swift module leaves out: epoll, eventfd, TCP options and prctl. */
#include <netinet/tcp.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/socket.h>

/* Declared by <sys/socket.h> only under _GNU_SOURCE, which the Glibc module is built without. */
extern int accept4(int socket, struct sockaddr *address, socklen_t *length, int flags);

/* prctl is variadic, which Swift cannot call: asks for signal `number` when the parent dies. */
static inline int tictactoe_set_parent_death_signal(int number) {
  return prctl(PR_SET_PDEATHSIG, (unsigned long)number, 0UL, 0UL, 0UL);
}
