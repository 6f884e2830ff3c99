#!/usr/bin/env python3
"""Measures `failscope serve` under the unauthenticated attacks of issue 23, on loopback only.

Starts the given binary (default: the debug build) on a free 127.0.0.1 port with a temporary data folder,
then, one attack at a time: slow request heads (SLOW connections from 127.0.0.2 upwards, 50 per address,
one header byte each half second), twelve 31 MB POSTs without a token, eight concurrent 25 Mpx PNG uploads
(1-bit grayscale, 3 MB each on the wire, 100 MB each decoded), and a NUL byte in the request target.
For each it prints the connections the server holds (its open sockets), its resident and peak memory
(VmRSS / VmHWM), and the answer time of an ordinary `GET /api/v1/runs` made meanwhile. Every wait is bounded.

Usage: scripts/hostile-clients.py [path/to/failscope] (SLOW=1000 by default)
"""
import hashlib
import os
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import zlib

BINARY = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(__file__), '..', '.build', 'debug', 'failscope')
TOKEN = 'hostile-' + os.urandom(6).hex()
SLOW = int(os.environ.get('SLOW', '1000'))


def memory(pid):
    fields = {}
    with open('/proc/%d/status' % pid) as status:
        for line in status:
            key, _, value = line.partition(':')
            fields[key] = value.strip()
    return int(fields['VmRSS'].split()[0]) // 1024, int(fields['VmHWM'].split()[0]) // 1024


def sockets(pid):
    count = 0
    for name in os.listdir('/proc/%d/fd' % pid):
        try:
            if os.readlink('/proc/%d/fd/%s' % (pid, name)).startswith('socket:'):
                count += 1
        except OSError:
            pass
    return count - 1  # the listening socket


def timed_get(port, timeout=5.0):
    """Milliseconds for an ordinary GET, or None when it failed or took longer than `timeout`."""
    started = time.monotonic()
    try:
        with urllib.request.urlopen('http://127.0.0.1:%d/api/v1/runs' % port, timeout=timeout) as response:
            response.read()
            if response.status != 200:
                return None
    except Exception:
        return None
    return (time.monotonic() - started) * 1000


def summary(latencies):
    answered = [value for value in latencies if value is not None]
    if not answered:
        return 'no GET answered (%d tried)' % len(latencies)
    return 'GET median %.1f ms, max %.1f ms, %d/%d answered' % (
        statistics.median(answered), max(answered), len(answered), len(latencies))


def png_25_megapixels(mark):
    width = height = 5000
    raw = bytearray(height * (width // 8 + 1))
    raw[1] = mark
    def chunk(kind, data):
        return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data) & 0xffffffff)
    return (b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', width, height, 1, 0, 0, 0, 0))
            + chunk(b'IDAT', zlib.compress(bytes(raw), 0)) + chunk(b'IEND', b''))


def slow_heads(pid, port):
    held = []
    for index in range(SLOW):
        connection = socket.socket()
        connection.bind(('127.0.0.%d' % (2 + index // 50), 0))
        connection.settimeout(2)
        try:
            connection.connect(('127.0.0.1', port))
            connection.send(b'GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ')
            connection.setblocking(False)
            held.append(connection)
        except OSError:
            connection.close()
    latencies, most = [], 0
    started = time.monotonic()
    while time.monotonic() - started < 15:
        for connection in held:
            try:
                connection.send(b'a')
            except OSError:
                pass
        most = max(most, sockets(pid))
        latencies.append(timed_get(port, timeout=2))
        time.sleep(0.5)  # the attack's pace: one byte per connection per half second
    still = sockets(pid)
    rss, peak = memory(pid)
    for connection in held:
        connection.close()
    print('slow heads (%d from %d addresses): up to %d connections held, %d still held after 15 s; RSS %d MiB, '
          'peak %d MiB; %s' % (SLOW, (SLOW + 49) // 50, most, still, rss, peak, summary(latencies)))


def unauthenticated_bodies(pid, port):
    body = b'{' * 31_000_000
    answers, latencies = [], []
    def attack():
        connection = socket.create_connection(('127.0.0.1', port), timeout=10)
        connection.sendall(b'POST /api/v1/runs/r/results HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n'
                           b'Content-Length: %d\r\n\r\n' % len(body))
        try:
            connection.sendall(body)
        except OSError:
            pass
        try:
            answers.append(connection.recv(64).split(b'\r\n')[0].decode())
        except OSError as error:
            answers.append(str(error))
        connection.close()
    before = memory(pid)[1]
    threads = [threading.Thread(target=attack) for _ in range(12)]
    for thread in threads:
        thread.start()
    while any(thread.is_alive() for thread in threads):
        latencies.append(timed_get(port, timeout=5))
        for thread in threads:
            thread.join(0.05)
    rss, peak = memory(pid)
    print('12 unauthenticated 31 MB POSTs: answers %s; peak %d -> %d MiB (RSS %d MiB); %s' % (
        sorted(set(answers)), before, peak, rss, summary(latencies)))


def huge_pngs(pid, port):
    images = [png_25_megapixels(index + 1) for index in range(8)]
    statuses, latencies = [], []
    def upload(png):
        request = urllib.request.Request(
            'http://127.0.0.1:%d/api/v1/artifacts/%s' % (port, hashlib.sha256(png).hexdigest()), data=png,
            method='PUT', headers={'Authorization': 'Bearer ' + TOKEN, 'Content-Type': 'image/png'})
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                statuses.append(response.status)
        except urllib.error.HTTPError as error:
            statuses.append(error.code)
        except Exception as error:
            statuses.append(str(error))
    before = memory(pid)[1]
    threads = [threading.Thread(target=upload, args=(png,)) for png in images]
    for thread in threads:
        thread.start()
    while any(thread.is_alive() for thread in threads):
        latencies.append(timed_get(port, timeout=5))
        for thread in threads:
            thread.join(0.05)
    rss, peak = memory(pid)
    print('8 concurrent 25 Mpx PNGs (%d bytes each): statuses %s; peak %d -> %d MiB (RSS %d MiB); %s' % (
        len(images[0]), sorted(statuses, key=str), before, peak, rss, summary(latencies)))


def nul_target(port):
    connection = socket.create_connection(('127.0.0.1', port), timeout=5)
    connection.sendall(b'GET /js/app.js\x00.html HTTP/1.1\r\nHost: x\r\n\r\n')
    print('GET /js/app.js\\0.html: %s' % connection.recv(64).split(b'\r\n')[0].decode())
    connection.close()


def main():
    data = tempfile.mkdtemp(prefix='failscope-hostile-')
    web = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'Web')
    server = subprocess.Popen([BINARY, 'serve', '--port', '0', '--data', data, '--upload-token', TOKEN,
                               '--web', web, '--threads', '2'],
                              stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    try:
        port = None
        deadline = time.monotonic() + 20
        while port is None and time.monotonic() < deadline:
            line = server.stderr.readline()
            if 'listening on http://127.0.0.1:' in line:
                port = int(line.rsplit(':', 1)[1])
        if port is None:
            sys.exit('the server did not start')
        threading.Thread(target=lambda: [None for _ in server.stderr], daemon=True).start()  # drain the log
        print('%s on port %d: idle %s; %s' % (BINARY, port, 'RSS %d MiB, peak %d MiB' % memory(server.pid),
                                             summary([timed_get(port) for _ in range(5)])))
        slow_heads(server.pid, port)
        unauthenticated_bodies(server.pid, port)
        huge_pngs(server.pid, port)
        nul_target(port)
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
        subprocess.run(['rm', '-rf', data])


if __name__ == '__main__':
    main()
