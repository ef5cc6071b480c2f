# SPDX-License-Identifier: GPL-2.0-or-later
# The build directory for a test script: make's $(BUILD), which the mk
# rules pass (`make test BUILD=/tmp/b` builds and tests there), else
# build/. Made absolute (scripts change directory) and exported, so the
# scripts a suite starts use the same one. Needs TOP.
: "${BUILD:=$TOP/build}"
case $BUILD in /*) ;; *) BUILD=$TOP/$BUILD ;; esac
export BUILD
