// glibc declares the _np spawn file actions only with _GNU_SOURCE, defined before any header.
#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE
#endif
#include "CSystemShims.h"

#include <errno.h>
#include <stdio.h>
#include <signal.h>
#include <unistd.h>

#if defined(__linux__)
#include <sys/prctl.h>

int groupsim_die_with_parent(void) {
    return prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
}

#elif defined(__APPLE__)
#include <pthread.h>
#include <stdint.h>
#include <sys/event.h>

static void *groupsim_wait_for_parent(void *argument) {
    int queue = (int)(intptr_t)argument;
    struct kevent event;
    for (;;) {
        int count = kevent(queue, NULL, 0, &event, 1, NULL);
        if (count > 0 || (count < 0 && errno != EINTR)) break;
    }
    kill(getpid(), SIGKILL);
    return NULL;
}

int groupsim_die_with_parent(void) {
    int queue = kqueue();
    if (queue < 0) return -1;
    struct kevent change;
    EV_SET(&change, getppid(), EVFILT_PROC, EV_ADD | EV_ONESHOT, NOTE_EXIT, 0, NULL);
    if (kevent(queue, &change, 1, NULL, 0, NULL) < 0) {
        int saved = errno;
        close(queue);
        errno = saved;
        return -1;
    }
    pthread_t thread;
    int failed = pthread_create(&thread, NULL, groupsim_wait_for_parent, (void *)(intptr_t)queue);
    if (failed != 0) {
        close(queue);
        errno = failed;
        return -1;
    }
    pthread_detach(thread);
    return 0;
}

#else
int groupsim_die_with_parent(void) {
    errno = ENOSYS;
    return -1;
}
#endif

int groupsim_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
#elif defined(__APPLE__)
    (void)actions;
    (void)lowest;
    return 0;
#else
    (void)actions;
    (void)lowest;
    return ENOSYS;
#endif
}

int groupsim_spawn_chdir(posix_spawn_file_actions_t *actions, const char *path) {
#if (defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 29))) || defined(__APPLE__)
    return posix_spawn_file_actions_addchdir_np(actions, path);
#else
    (void)actions;
    (void)path;
    return ENOSYS;
#endif
}

int groupsim_line_buffer_stdout(void) {
    return setvbuf(stdout, NULL, _IOLBF, 0);
}
