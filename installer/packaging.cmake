# CPack: two Debian packages, so that a server installs the engine without Qt Widgets, and one
# relocatable tarball. Build them with scripts/package (or cpack in a build folder).
#   tunedeck-engine  components engine + service
#   tunedeck         component desktop; depends on tunedeck-engine of the same version

set(CPACK_PACKAGE_NAME "tunedeck")
set(CPACK_PACKAGE_VENDOR "Tunedeck")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_CONTACT "${TUNEDECK_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_DIRECTORY "${CMAKE_BINARY_DIR}/packages")
set(CPACK_GENERATOR "DEB;TGZ")
set(CPACK_SOURCE_GENERATOR "")
# Debug info stays in the build folder; the packages get stripped binaries.
set(CPACK_STRIP_FILES ON)
set(CPACK_THREADS 0)

set(_components engine service)
if(TARGET tunedeck)
    list(APPEND _components desktop)
endif()
set(CPACK_COMPONENTS_ALL ${_components})

# Debian: one package per component group.
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "science")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
# Runtime Depends come from dpkg-shlibdeps on the binaries (Qt 6, yaml-cpp, libssh2, SQLite),
# never from a hand-kept list.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS OFF)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)

set(CPACK_DEBIAN_ENGINE_PACKAGE_NAME "tunedeck-engine")
# First line the synopsis, then the extended description (CPack indents it for the control file).
set(CPACK_DEBIAN_ENGINE_DESCRIPTION
    "hyperparameter tuning engine, node agent and trial SDKs
Tunedeck runs hyperparameter-tuning experiments: many training trials, each
a long-lived process, scheduled onto the CPUs and GPUs of this machine or of
a cluster reached over SSH, stopped early when they are weak, checkpointed,
retried when they crash, and recorded in SQLite.

This package holds the headless engine (tunedeck-engine), the node agent
(tunedeck-worker), the Python and C++ trial SDKs, example experiments, and
systemd units that run the engine as a service for desktop apps to attach to.")
# Python trials (the examples, the Python SDK) need an interpreter; C++ trials do not.
set(CPACK_DEBIAN_ENGINE_PACKAGE_RECOMMENDS "python3")
# Ray Tune scripts (`run SCRIPT.py`) carry trainables with cloudpickle; NNI configs are read
# with PyYAML.
set(CPACK_DEBIAN_ENGINE_PACKAGE_SUGGESTS "python3-sklearn, python3-cloudpickle, python3-yaml")
set(CPACK_DEBIAN_ENGINE_PACKAGE_CONTROL_EXTRA
    "${CMAKE_CURRENT_SOURCE_DIR}/debian/postinst;${CMAKE_CURRENT_SOURCE_DIR}/debian/prerm;${CMAKE_CURRENT_SOURCE_DIR}/debian/postrm;${CMAKE_CURRENT_SOURCE_DIR}/debian/conffiles")

set(CPACK_DEBIAN_DESKTOP_PACKAGE_NAME "tunedeck")
set(CPACK_DEBIAN_DESKTOP_PACKAGE_SECTION "science")
set(CPACK_DEBIAN_DESKTOP_DESCRIPTION
    "desktop app for hyperparameter-tuning experiments
Tunedeck runs hyperparameter-tuning experiments with a native engine; this
package is its desktop front end: edit a search space, press Run, watch the
trials race on live charts, and export the best config. It opens
experiment.sqlite histories and Tunedeck experiment files from the file
manager.")
set(CPACK_DEBIAN_DESKTOP_PACKAGE_DEPENDS "tunedeck-engine (= ${PROJECT_VERSION})")

# The tarball: one folder, relocatable (the engine finds the worker and the SDK relative to
# itself). It leaves out the service component, whose units and /etc file only make sense in a
# system-wide install.
# (Component install only to choose the components; cpack_project_config puts them in one
# folder of one file.)
set(CPACK_ARCHIVE_COMPONENT_INSTALL ON)
set(CPACK_PACKAGE_FILE_NAME "tunedeck-${PROJECT_VERSION}-linux-${CMAKE_SYSTEM_PROCESSOR}")

set(TUNEDECK_PACKAGE_COMPONENTS_TGZ ${_components})
list(REMOVE_ITEM TUNEDECK_PACKAGE_COMPONENTS_TGZ service)
configure_file("${CMAKE_CURRENT_SOURCE_DIR}/cpack_project_config.cmake.in"
               "${CMAKE_BINARY_DIR}/CPackProjectConfig.cmake" @ONLY)
set(CPACK_PROJECT_CONFIG_FILE "${CMAKE_BINARY_DIR}/CPackProjectConfig.cmake")

include(CPack)

cpack_add_component_group(engine DISPLAY_NAME "Tunedeck engine")
cpack_add_component(engine DISPLAY_NAME "Engine, worker, SDKs and examples" GROUP engine)
cpack_add_component(service DISPLAY_NAME "systemd units" GROUP engine)
if(TARGET tunedeck)
    cpack_add_component_group(desktop DISPLAY_NAME "Tunedeck desktop app")
    cpack_add_component(desktop DISPLAY_NAME "Desktop app" GROUP desktop)
endif()
