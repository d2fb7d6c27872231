// C calls Swift cannot make itself (variadic functions) or that differ per platform, behind one
// function each. Docs/Portability.md lists every OS-specific call the project makes.
#ifndef GROUPSIM_SYSTEM_SHIMS_H
#define GROUPSIM_SYSTEM_SHIMS_H

#include <spawn.h>

/// Arranges for this process to receive SIGKILL when its parent exits. Returns 0, or -1 with errno set.
///
/// Linux: `prctl(PR_SET_PDEATHSIG, SIGKILL)` (prctl is variadic, which Swift does not import).
/// macOS: a detached thread waits in `kevent` for the parent's `NOTE_EXIT` and then SIGKILLs this
/// process. Compiled and tested on Linux only; the macOS branch is written, not built here.
int groupsim_die_with_parent(void);

/// In a child spawned with `actions`: close every descriptor from `lowest` up. Returns 0 or an error
/// number. Linux: `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34+; ENOSYS before). macOS:
/// nothing to add (0): the spawn sets `POSIX_SPAWN_CLOEXEC_DEFAULT` instead.
int groupsim_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest);

/// In a child spawned with `actions`: change to `path` before exec. Returns 0 or an error number.
/// `posix_spawn_file_actions_addchdir_np` on both (glibc 2.29+, macOS 10.15+).
int groupsim_spawn_chdir(posix_spawn_file_actions_t *actions, const char *path);

/// Makes stdout line-buffered: through a pipe (SwiftPM's plugin runner, a CI log) the C library would
/// hold what is printed until its buffer fills. Returns 0, or non-zero. (Swift 6 cannot name `stdout`,
/// a C global, without an unsafe reference.)
int groupsim_line_buffer_stdout(void);

#endif
