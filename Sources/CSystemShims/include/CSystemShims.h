// C calls Swift cannot make itself (variadic functions) or that differ per platform, behind one
// function each. Docs/Portability.md lists every OS-specific call the project makes.
#ifndef GROUPSIM_SYSTEM_SHIMS_H
#define GROUPSIM_SYSTEM_SHIMS_H

/// Arranges for this process to receive SIGKILL when its parent exits. Returns 0, or -1 with errno set.
///
/// Linux: `prctl(PR_SET_PDEATHSIG, SIGKILL)` (prctl is variadic, which Swift does not import).
/// macOS: a detached thread waits in `kevent` for the parent's `NOTE_EXIT` and then SIGKILLs this
/// process. Compiled and tested on Linux only; the macOS branch is written, not built here.
int groupsim_die_with_parent(void);

#endif
