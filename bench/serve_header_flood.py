#!/usr/bin/env python3
"""One request whose header block is MB megabytes (fields of 1 KB) sent to damas serve on
127.0.0.1:PORT, the server being process PID: prints how the request ended (the answer's status
line, or the connection closed under the sender), how many bytes were sent, and the server's
resident memory before, at its highest during the request (sampled every 5 ms, and VmHWM), and
after.

usage: serve_header_flood.py PORT PID [MB=100] [CONNECTIONS=1]
"""
import socket
import sys
import threading
import time


def memory_kib(pid, field):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"no {field} for process {pid}")


def flood(port, megabytes, result):
    s = socket.create_connection(("127.0.0.1", port))
    field = b"X-Flood: " + b"a" * 1013 + b"\r\n"  # 1 KB a field
    sent = 0
    try:
        s.sendall(b"GET /api/v1 HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        block = field * 64
        while sent < megabytes * 1024 * 1024:
            s.sendall(block)
            sent += len(block)
        s.sendall(b"\r\n")
        ended = "sent whole"
    except OSError as e:
        ended = f"send stopped ({e.strerror})"
    try:
        s.settimeout(5)
        answer = s.recv(4096).split(b"\r\n", 1)[0].decode("latin-1")
    except OSError as e:
        answer = f"no answer ({e.strerror})"
    s.close()
    result.append((sent, ended, answer))


def main():
    port, pid = int(sys.argv[1]), int(sys.argv[2])
    megabytes = int(sys.argv[3]) if len(sys.argv) > 3 else 100
    connections = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    before = memory_kib(pid, "VmRSS")
    peak = before
    results = []
    threads = [threading.Thread(target=flood, args=(port, megabytes, results))
               for _ in range(connections)]
    for t in threads:
        t.start()
    while any(t.is_alive() for t in threads):
        peak = max(peak, memory_kib(pid, "VmRSS"))
        time.sleep(0.005)
    time.sleep(0.2)
    after = memory_kib(pid, "VmRSS")
    for sent, ended, answer in results:
        print(f"{sent / 1e6:.1f} MB sent, {ended}; answer: {answer}")
    print(f"server RSS: before {before / 1024:.1f} MiB, highest {peak / 1024:.1f} MiB "
          f"(+{(peak - before) / 1024:.1f}), after {after / 1024:.1f} MiB; "
          f"VmHWM {memory_kib(pid, 'VmHWM') / 1024:.1f} MiB")
    return 0 if peak - before <= 10 * 1024 else 1


if __name__ == "__main__":
    sys.exit(main())
