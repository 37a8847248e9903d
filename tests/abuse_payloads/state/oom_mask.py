# A wrong answer that tries to turn its 0 into a masked verdict: it makes its own processes as
# small as they can be, at the runner's OOM score (oom_score_adj 0, the lowest it may set),
# and fills the container's memory with pages no process maps (a memfd, SysV shared memory
# handed to root), so that the OOM killer's largest candidate is the runner. The job must
# still end scored 0 with cause memory_limit, never infra_error.
import ctypes
import os

try:
    with open("/proc/self/oom_score_adj", "w") as fh:
        fh.write("0")
except OSError:
    pass
libc = ctypes.CDLL(None, use_errno=True)
MiB = 1 << 20
for _ in range(256):
    sid = libc.shmget(0, 16 * MiB, 0o1600)
    if sid < 0:
        break
    libc.shmat.restype = ctypes.c_void_p
    addr = libc.shmat(sid, None, 0)
    if addr and addr != ctypes.c_void_p(-1).value:
        ctypes.memset(addr, 7, 16 * MiB)
        libc.shmdt(ctypes.c_void_p(addr))
    buf = ctypes.create_string_buffer(512)
    if libc.shmctl(sid, 2, buf) == 0:
        ctypes.c_uint.from_buffer(buf, 4).value = 0
        libc.shmctl(sid, 1, buf)
held = []  # memfds of 8 MiB each (under the file-size limit), never mapped
try:
    while True:
        fd = os.memfd_create("rlvr-mask")
        os.posix_fallocate(fd, 0, 8 * MiB)
        held.append(fd)
except OSError:
    pass
