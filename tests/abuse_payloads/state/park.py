# Leaves state for whoever runs next in this container: SysV shared memory touched (charged to
# the container's memory cgroup) and handed to root or to a stranger uid with IPC_SET, a SysV
# message queue with data and a semaphore set handed to root, POSIX shared memory and message
# queues, files in every writable dir, a named unix socket, and an abstract one that only a
# message in flight keeps alive. It parks all but 4 MiB of the memory (and what its process holds), so
# a correct answer after it fails if any of it survives the wipe.
import ctypes
import os
import socket

libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
MiB = 1 << 20


def _read(path, default):
    try:
        return int(open(path).read().split()[0])
    except (OSError, ValueError, IndexError):
        return default


def _stat():  # memory no reclaim can take back: anonymous and shared
    try:
        rows = dict(line.split() for line in open("/sys/fs/cgroup/memory/memory.stat"))
        return int(rows["total_rss"]) + int(rows["total_shmem"])
    except (OSError, ValueError, KeyError):
        return 1 << 40


limit = _read("/sys/fs/cgroup/memory/memory.limit_in_bytes", 512 * MiB)


def hand_over(ctl, ident, uid, cmd_stat=2, cmd_set=1, sem=False):
    buf = ctypes.create_string_buffer(512)
    args = (ident, 0, cmd_stat, buf) if sem else (ident, cmd_stat, buf)
    if ctl(*args) == 0:
        ctypes.c_uint.from_buffer(buf, 4).value = uid
        ctypes.c_uint.from_buffer(buf, 8).value = uid
        ctl(*((ident, 0, cmd_set, buf) if sem else (ident, cmd_set, buf)))


n = 0
while _stat() + 4 * MiB < limit - 4 * MiB:  # all but 4 MiB and what this process holds
    sid = libc.shmget(0, 4 * MiB, 0o1600)
    if sid < 0:
        break
    addr = libc.shmat(sid, None, 0)
    if addr and addr != ctypes.c_void_p(-1).value:
        ctypes.memset(addr, 7, 4 * MiB)
        libc.shmdt(ctypes.c_void_p(addr))
    hand_over(libc.shmctl, sid, 4242 if n % 16 == 0 else 0)
    n += 1
mq = libc.msgget(0, 0o1600)
if mq >= 0:
    msg = ctypes.create_string_buffer(b"\x01\x00\x00\x00\x00\x00\x00\x00" + b"m" * 8000)
    for _ in range(2):
        libc.msgsnd(mq, msg, 8000, 0o4000)
    hand_over(libc.msgctl, mq, 0)
sem = libc.semget(0, 4, 0o1600)
if sem >= 0:
    hand_over(libc.semctl, sem, 0, sem=True)
libc.mq_open.restype = ctypes.c_int
libc.mq_open(b"/rlvr-park", os.O_CREAT | os.O_RDWR, 0o666, None)
for d, size in (("/dev/shm", MiB), ("/tmp", MiB), (os.environ.get("HOME", "/tmp"), MiB)):
    try:
        with open(os.path.join(d, "rlvr-park"), "wb") as fh:
            fh.write(b"p" * size)
        os.chmod(os.path.join(d, "rlvr-park"), 0o666)
    except OSError:
        pass
try:
    a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
    a.bind(b"\0rlvr-park-inflight")
    socket.send_fds(b, [b"x"], [a.fileno(), b.fileno()])
    a.close()
    b.close()
    named = socket.socket(socket.AF_UNIX)
    named.bind("/tmp/rlvr-park.sock")
except OSError:
    pass
