"""A seccomp filter for the answer's processes: no route back into a process's own memory.

The go and rust test binaries run the answer in the same process as the tests and the code that
signs their results. The binary is exec-only, so the kernel makes that process non-dumpable and
`/proc/self/mem` belongs to root; an answer that could call `prctl(PR_SET_DUMPABLE, 1)` would get
it back and could patch the testing package's code. The filter denies (EPERM) every syscall that
reaches another process's memory or makes a process reachable again:

- `prctl(PR_SET_DUMPABLE)`, `prctl(PR_SET_PTRACER)`, `prctl(PR_SET_MM)`;
- `ptrace`, `process_vm_readv`, `process_vm_writev` (these work on the caller's own pid
  whatever its dumpability), `pidfd_getfd`;
- `unshare`, `setns` (a new user namespace is a second identity);
- `io_uring_setup/enter/register` (io_uring's kernel workers run syscalls this filter never
  sees) and `socket(AF_VSOCK, ...)` (vsock is not network-namespaced: a way past
  `network_mode=none` to the hypervisor's transport);
- any syscall of another ABI than the runner's own (i386 `int 0x80`, x32).

It is installed after the uid change and before exec (`subprocess.Popen(preexec_fn=...)`), with
no-new-privileges, so it holds for the process and everything it starts; a filter cannot be
removed. Standard library only (ctypes, raw classic BPF).
"""

from __future__ import annotations

import ctypes
import errno
import platform
import struct

PR_SET_NO_NEW_PRIVS = 38
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2
DENIED_PRCTL = {"PR_SET_DUMPABLE": 4, "PR_SET_MM": 35, "PR_SET_PTRACER": 0x59616D61}

# io_uring runs syscalls from kernel workers that seccomp never sees (same numbers everywhere)
IO_URING = {"io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427}
# socket() families refused: AF_VSOCK is not network-namespaced, so `network_mode=none` does not
# close it (it talks to the hypervisor's transport)
DENIED_SOCKET_FAMILIES = {"AF_VSOCK": 40}

# (audit arch, first syscall number of a foreign ABI or None, numbers of the denied syscalls)
ARCHES = {
    "x86_64": (0xC000003E, 0x40000000, {"ptrace": 101, "prctl": 157, "process_vm_readv": 310,
                                         "process_vm_writev": 311, "pidfd_getfd": 438,
                                         "unshare": 272, "setns": 308, "socket": 41,
                                         **IO_URING}),
    "aarch64": (0xC00000B7, None, {"ptrace": 117, "prctl": 167, "process_vm_readv": 270,
                                   "process_vm_writev": 271, "pidfd_getfd": 438,
                                   "unshare": 97, "setns": 268, "socket": 198, **IO_URING}),
}  # fmt: skip

LD_ABS, JEQ, JGE, RET = 0x20, 0x15, 0x35, 0x06
ALLOW = 0x7FFF0000
DENY = 0x00050000 | errno.EPERM  # SECCOMP_RET_ERRNO
NR, ARCH, ARG0 = 0, 4, 16  # offsets in struct seccomp_data (ARG0: low 32 bits, little endian)


def _program(arch: int, foreign: int | None, denied: dict[str, int]) -> list[tuple]:
    """Classic BPF as (code, jump-if-true label, jump-if-false label, k); labels resolved later."""
    prog: list[tuple] = [(LD_ABS, None, None, ARCH), (JEQ, None, "deny", arch),
                         (LD_ABS, None, None, NR)]  # fmt: skip
    if foreign is not None:
        prog.append((JGE, "deny", None, foreign))
    prctl = denied.pop("prctl")
    socket = denied.pop("socket")
    prog.append((JEQ, "prctl", None, prctl))
    prog.append((JEQ, "socket", None, socket))
    prog += [(JEQ, "deny", None, nr) for nr in denied.values()]
    prog += [(RET, None, None, ALLOW), ("prctl",), (LD_ABS, None, None, ARG0)]
    prog += [(JEQ, "deny", None, option) for option in DENIED_PRCTL.values()]
    prog += [(RET, None, None, ALLOW), ("socket",), (LD_ABS, None, None, ARG0)]
    prog += [(JEQ, "deny", None, family) for family in DENIED_SOCKET_FAMILIES.values()]
    prog += [(RET, None, None, ALLOW), ("deny",), (RET, None, None, DENY)]
    return prog


def _assemble(prog: list[tuple]) -> bytes:
    labels, pos = {}, 0
    for ins in prog:
        if len(ins) == 1:
            labels[ins[0]] = pos
        else:
            pos += 1
    out, pos = b"", 0
    for ins in prog:
        if len(ins) == 1:
            continue
        code, jt, jf, k = ins
        jumps = [labels[j] - pos - 1 if j else 0 for j in (jt, jf)]
        out += struct.pack("<HBBI", code, jumps[0], jumps[1], k)
        pos += 1
    return out


class Filter:
    """The filter for this machine, built before fork; `install` is the child's preexec step."""

    def __init__(self) -> None:
        machine = platform.machine()
        if machine not in ARCHES:
            raise OSError(f"no seccomp filter for {machine}; the answer cannot be confined")
        arch, foreign, numbers = ARCHES[machine]
        code = _assemble(_program(arch, foreign, dict(numbers)))
        self._buf = ctypes.create_string_buffer(code, len(code))
        self._fprog = struct.pack("<HxxxxxxQ", len(code) // 8, ctypes.addressof(self._buf))
        self._fbuf = ctypes.create_string_buffer(self._fprog, len(self._fprog))
        self._prctl = ctypes.CDLL(None, use_errno=True).prctl

    def install(self) -> None:
        """Confine the calling process for good; raises (so Popen fails, closed) if it cannot."""
        if self._prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "no-new-privileges failed")
        addr = ctypes.c_void_p(ctypes.addressof(self._fbuf))
        if self._prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, addr, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "installing the seccomp filter failed")
