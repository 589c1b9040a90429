#!/bin/sh
# Rebuilds corners.pb from corners.txtpb with protoc (apt-get install
# protobuf-compiler) against profile_min.proto; the tests use the committed
# binary and do not need protoc.
set -eu
cd "$(dirname "$0")"
grep -v '^#' corners.txtpb | protoc --encode=aflame_test.Profile profile_min.proto >corners.pb
