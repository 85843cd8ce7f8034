# What `cmake --install` and the .deb put where.
include(GNUInstallDirs)
install(TARGETS parasight-cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(PARASIGHT_GUI)
    install(TARGETS parasight RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

    # Desktop integration, all named for the application id, PARASIGHT_APP_ID (docs/packaging.md).
    set(PARASIGHT_DESKTOP_FILE "${PROJECT_SOURCE_DIR}/packaging/${PARASIGHT_APP_ID}.desktop")
    set(PARASIGHT_METAINFO_FILE "${PROJECT_SOURCE_DIR}/packaging/${PARASIGHT_APP_ID}.metainfo.xml")
    install(FILES "${PARASIGHT_DESKTOP_FILE}" DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
    install(FILES "${PROJECT_SOURCE_DIR}/resources/icons/parasight.svg"
            DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps RENAME ${PARASIGHT_APP_ID}.svg)
    install(FILES "${PARASIGHT_METAINFO_FILE}" DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)

    # Software centres show the newest <release> as the installed version: it must be this project's version.
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${PARASIGHT_METAINFO_FILE}")
    file(READ "${PARASIGHT_METAINFO_FILE}" metainfo)
    if(NOT metainfo MATCHES "<releases>[ \t\r\n]*<release version=\"([^\"]*)\"")
        message(FATAL_ERROR "packaging/${PARASIGHT_APP_ID}.metainfo.xml: no <release version=\"...\"> in <releases>")
    elseif(NOT CMAKE_MATCH_1 STREQUAL PROJECT_VERSION)
        message(FATAL_ERROR "packaging/${PARASIGHT_APP_ID}.metainfo.xml: the newest release is ${CMAKE_MATCH_1}, but "
                            "CMakeLists.txt says ${PROJECT_VERSION}: add a <release> for ${PROJECT_VERSION} first")
    endif()
endif()
# parasight-calibrate (Python 3 and PyTorch; docs/calibration.md): the script in bin/, its modules in
# share/parasight/calibrate/, where it looks for them from its own folder (../share/parasight/calibrate).
install(PROGRAMS ${PROJECT_SOURCE_DIR}/app/calibrate/parasight-calibrate DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/app/calibrate/ DESTINATION ${CMAKE_INSTALL_DATADIR}/parasight/calibrate
        FILES_MATCHING PATTERN "*.py" PATTERN "__pycache__" EXCLUDE)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/presets/ DESTINATION ${CMAKE_INSTALL_DATADIR}/parasight/presets
        FILES_MATCHING PATTERN "*.yaml" PATTERN "*.md")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR} FILES_MATCHING PATTERN "*.md")
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
# The Slurm job-array example for sweeps, to copy (its scripts stay executable).
install(DIRECTORY ${PROJECT_SOURCE_DIR}/packaging/slurm/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples/slurm
        USE_SOURCE_PERMISSIONS)
