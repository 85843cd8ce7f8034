# `make package`: a Debian package of the desktop application, the command-line tool, the desktop integration
# (desktop file, icon, AppStream metainfo), the presets and the docs (docs/packaging.md).
set(CPACK_PACKAGE_NAME "parasight")
set(CPACK_PACKAGE_VENDOR "ParaSight")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_CONTACT "ParaSight maintainers")
# The extended description; CPack puts the summary above it as the first line.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION [[
ParaSight simulates one iteration of distributed deep-learning training on every
device of a cluster: describe the network topology (ring, fully connected and
switch dimensions), a model and a parallelization strategy (data, tensor and
pipeline parallelism, ZeRO, recomputation, pipeline schedules), and it reports
how long an iteration takes, where the time goes, whether it fits in memory and
how long each collective takes on that topology. For convolutional networks its
oracle (ParaDL's closed forms) shows where each parallel strategy stops scaling.

The package holds the desktop application (parasight) and the command-line tool
(parasight-cli), which writes reports as JSON, breakdowns as CSV and timelines as
Chrome/Perfetto traces. parasight-calibrate measures a machine with PyTorch
(python3-torch) and writes a device preset, a cluster preset and a table of
measured operation times for the simulation.]])
set(CPACK_DEBIAN_PACKAGE_SECTION "science")
# Depends: from the binaries' shared libraries, by dpkg-shlibdeps (Debian package dpkg-dev).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# parasight-calibrate runs on Python 3 with PyTorch; the simulator does without them, so they are only suggested
# (python3-torch brings python3).
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "python3-torch")
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_GENERATOR "DEB")
include(CPack)
