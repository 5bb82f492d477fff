# Writes the version header every binary prints with --version: the project version and the git
# commit the sources were built from ("-dirty" when tracked files differ from that commit).
# Run at configure time (include) and again on every build (cmake -P, from the
# tunedeck_version_stamp target), so a rebuilt binary never shows a stale commit. configure_file
# leaves the header untouched when nothing changed, so an unchanged commit recompiles nothing.
#
# Inputs: TUNEDECK_SOURCE_DIR, TUNEDECK_VERSION, TUNEDECK_VERSION_TEMPLATE,
# TUNEDECK_VERSION_HEADER, and GIT_EXECUTABLE (may be empty: no git, commit "unknown").

set(TUNEDECK_GIT_COMMIT "unknown")
if(GIT_EXECUTABLE AND EXISTS "${TUNEDECK_SOURCE_DIR}/.git")
    execute_process(COMMAND "${GIT_EXECUTABLE}" rev-parse --short=12 HEAD
                    WORKING_DIRECTORY "${TUNEDECK_SOURCE_DIR}"
                    OUTPUT_VARIABLE _commit OUTPUT_STRIP_TRAILING_WHITESPACE
                    RESULT_VARIABLE _status ERROR_QUIET)
    if(_status EQUAL 0 AND _commit)
        set(TUNEDECK_GIT_COMMIT "${_commit}")
        # --no-optional-locks: several builds share one checkout; a status must never take the
        # index lock that a concurrent git command of someone else needs.
        execute_process(COMMAND "${GIT_EXECUTABLE}" --no-optional-locks status --porcelain
                                --untracked-files=no
                        WORKING_DIRECTORY "${TUNEDECK_SOURCE_DIR}"
                        OUTPUT_VARIABLE _changes RESULT_VARIABLE _status ERROR_QUIET)
        if(_status EQUAL 0 AND NOT _changes STREQUAL "")
            string(APPEND TUNEDECK_GIT_COMMIT "-dirty")
        endif()
    endif()
endif()
set(PROJECT_VERSION "${TUNEDECK_VERSION}")
configure_file("${TUNEDECK_VERSION_TEMPLATE}" "${TUNEDECK_VERSION_HEADER}" @ONLY)
