#!/bin/sh
# encode.sh PERFETTO_TRACE_PROTO: regenerate the binary traces from their
# textprotos (run from this directory). Needs protoc (Debian
# protobuf-compiler) and protos/perfetto/trace/perfetto_trace.proto from a
# google/perfetto checkout; the tests read only the committed binaries.
set -eu
proto=$1
for t in *.textproto; do
	protoc --encode=perfetto.protos.Trace -I "$(dirname "$proto")" "$proto" <"$t" >"${t%.textproto}.pftrace"
done
python3 compress.py corners.pftrace corners-compressed.pftrace
