# App smoke tests under Xvfb (included by tests/CMakeLists.txt when the app is built and xvfb-run
# exists). One test runs the real varsim binary for every scene `varsim list` prints at test time
# (so new scenes are covered without touching this file) and inspects the screenshots; one checks
# the no-display message and exit code; one that a run gaining energy shows the energy monitor's
# notice and red HUD line (and a passive one neither).
add_executable(app_smoke_check ${CMAKE_CURRENT_SOURCE_DIR}/app_smoke_check.cpp)
varsim_link_scenes(app_smoke_check)
target_link_libraries(app_smoke_check PRIVATE varsim::stb)
target_compile_options(app_smoke_check PRIVATE ${VARSIM_WARNINGS})
add_dependencies(app_smoke_check varsim)

add_test(NAME app_smoke_all_scenes
         COMMAND ${XVFB_RUN} -a -s "-screen 0 1280x720x24" $<TARGET_FILE:app_smoke_check> $<TARGET_FILE:varsim>
                 ${CMAKE_CURRENT_BINARY_DIR}/out 24)
set_tests_properties(app_smoke_all_scenes PROPERTIES TIMEOUT 1500)

add_test(NAME app_smoke_no_display COMMAND app_smoke_check --no-display $<TARGET_FILE:varsim>)
set_tests_properties(app_smoke_no_display PROPERTIES TIMEOUT 60)

add_test(NAME app_smoke_energy_flag
         COMMAND ${XVFB_RUN} -a -s "-screen 0 1280x720x24" $<TARGET_FILE:app_smoke_check> --energy-flag
                 $<TARGET_FILE:varsim> ${CMAKE_CURRENT_BINARY_DIR}/out)
set_tests_properties(app_smoke_energy_flag PROPERTIES TIMEOUT 300)

# The HUD is sized to the frame's own lines: the first frame after a switch from the car to space_robot had cut 2
# glyphs of the new keys line (the window kept the car's size for one frame).
add_test(NAME app_hud_after_scene_switch
         COMMAND ${CMAKE_COMMAND} -E env VARSIM_SETTINGS=${CMAKE_CURRENT_BINARY_DIR}/out/hud_settings.json
                 ${XVFB_RUN} -a -s "-screen 0 1280x720x24" $<TARGET_FILE:varsim> --smoke-test space_robot
                 --switch-from car --frames 1 --screenshot ${CMAKE_CURRENT_BINARY_DIR}/out/hud_after_switch.png)
set_tests_properties(app_hud_after_scene_switch PROPERTIES TIMEOUT 60 PASS_REGULAR_EXPRESSION
                     "clipped text: 0 glyphs\n.*smoke test space_robot: 1 frames")

# The frame benchmark with physics on the worker thread: runs, and reports the per-phase costs and
# the achieved share of real time (issue 16 item 4).
add_test(NAME app_bench_frames_worker
         COMMAND ${XVFB_RUN} -a -s "-screen 0 1280x720x24" $<TARGET_FILE:varsim> --bench-frames 1 --scene ladder
                 --set links=30)
set_tests_properties(app_bench_frames_worker PROPERTIES TIMEOUT 60 PASS_REGULAR_EXPRESSION
                     "physics: worker thread.*of real time.*physics step.*frame \\(all threads\\)")

# The app opens a scene file as `varsim run` does (--scene FILE.json): the issue-16 preset runs, and a file
# that cannot be read is refused with its name (exit 2, checked by the message).
add_test(NAME app_bench_frames_scene_file
         COMMAND ${XVFB_RUN} -a -s "-screen 0 1280x720x24" $<TARGET_FILE:varsim> --bench-frames 1 --scene
                 ${PROJECT_SOURCE_DIR}/assets/scenes/ladder_whiplash_1000.json)
set_tests_properties(app_bench_frames_scene_file PROPERTIES TIMEOUT 60 PASS_REGULAR_EXPRESSION
                     "scene ladder.*physics: worker thread.*of real time")
add_test(NAME app_scene_file_missing
         COMMAND ${XVFB_RUN} -a -s "-screen 0 1280x720x24" $<TARGET_FILE:varsim> --bench-frames 1 --scene
                 ${CMAKE_CURRENT_BINARY_DIR}/no_such_scene.json)
set_tests_properties(app_scene_file_missing PROPERTIES TIMEOUT 60 PASS_REGULAR_EXPRESSION
                     "no_such_scene.json: cannot open the scene file")

# Partial panel redraws (ui/app/ui_layer.h): with VARSIM_PANEL_CHECK=1 the app redraws every frame that
# redrew one set of panels again in full and compares the pixels the set covers: none may differ.
add_test(NAME app_partial_panel_redraws
         COMMAND ${CMAKE_COMMAND} -E env VARSIM_PANEL_CHECK=1 ${XVFB_RUN} -a -s "-screen 0 1280x720x24"
                 $<TARGET_FILE:varsim> --bench-frames 3 --scene ladder --set links=100)
set_tests_properties(app_partial_panel_redraws PROPERTIES TIMEOUT 60 PASS_REGULAR_EXPRESSION
                     "one of 2 sets in [1-9][0-9]* more.*checked against full redraws: [1-9][0-9]* frames, 0 pixels differed; frames keeping the panels checked: [1-9][0-9]*, kept pixels changed: 0")

# The Autopilot (MPC) in the real app (ui/app/autopilot_ui.h): engaged at the start with the goal 6 m ahead along the
# parking lot's aisle, re-plans waited for (the closed loop of `varsim mpc`); after 5 s the car is within 0.3 m of
# the goal (measured 0.271 m) without touching anything.
add_test(NAME app_autopilot_car
         COMMAND ${CMAKE_COMMAND} -E env VARSIM_SETTINGS=${CMAKE_CURRENT_BINARY_DIR}/out/autopilot_settings.json
                 ${XVFB_RUN} -a -s "-screen 0 1280x720x24" $<TARGET_FILE:varsim> --smoke-test car --frames 300
                 --autopilot 6,0 --hide-ui --screenshot ${CMAKE_CURRENT_BINARY_DIR}/out/autopilot_car.png)
set_tests_properties(app_autopilot_car PROPERTIES TIMEOUT 120 PASS_REGULAR_EXPRESSION
                     "autopilot: goal \\(6, 0\\) m, 0\\.[0-2][0-9][0-9] m away at t = 5 s, impacts 0, [0-9]+ re-plans")

# The boat's Autopilot (boat_follow, a re-plan every 0.2 s): bow into the default wind, the dock 3 m upwind (where M
# puts it); after 5 s the boat is within 1 m of it (measured 0.893 m; 0.022 m after 10 s), every re-plan adopted.
add_test(NAME app_autopilot_boat
         COMMAND ${CMAKE_COMMAND} -E env VARSIM_SETTINGS=${CMAKE_CURRENT_BINARY_DIR}/out/autopilot_settings.json
                 ${XVFB_RUN} -a -s "-screen 0 1280x720x24" $<TARGET_FILE:varsim> --smoke-test boat --frames 300
                 --set start_attitude=0,0,-2.677945044588987 --autopilot -2.683,-1.342 --hide-ui
                 --screenshot ${CMAKE_CURRENT_BINARY_DIR}/out/autopilot_boat.png)
set_tests_properties(app_autopilot_boat PROPERTIES TIMEOUT 180 PASS_REGULAR_EXPRESSION
                     "autopilot: goal \\(-2\\.683, -1\\.342\\) m, 0\\.[0-9]+ m away at t = 5 s, impacts 0, 25 re-plans \\(0 stale\\)"
                     FAIL_REGULAR_EXPRESSION "wind is from astern")
# The default boat (heading 0, the wind 6, 3 m/s from astern) drifts past a goal ahead: engaging says so and what to do.
add_test(NAME app_autopilot_boat_wind_astern
         COMMAND ${CMAKE_COMMAND} -E env VARSIM_SETTINGS=${CMAKE_CURRENT_BINARY_DIR}/out/autopilot_settings.json
                 ${XVFB_RUN} -a -s "-screen 0 1280x720x24" $<TARGET_FILE:varsim> --smoke-test boat --frames 6
                 --autopilot 3,0 --hide-ui --screenshot ${CMAKE_CURRENT_BINARY_DIR}/out/autopilot_boat_astern.png)
set_tests_properties(app_autopilot_boat_wind_astern PROPERTIES TIMEOUT 60 PASS_REGULAR_EXPRESSION
                     "the wind is from astern; the boat's thrusters only push.*Steer it bow into the wind")

# The snakeboard's Autopilot (snakeboard_follow: 3 s of strokes at h = 0.1 s, a re-plan every 0.1 s): from rest to a
# goal 4 m ahead (its forward is body -x); after 5 s the board is within 0.5 m of it (measured 0.225 m).
add_test(NAME app_autopilot_snakeboard
         COMMAND ${CMAKE_COMMAND} -E env VARSIM_SETTINGS=${CMAKE_CURRENT_BINARY_DIR}/out/autopilot_settings.json
                 ${XVFB_RUN} -a -s "-screen 0 1280x720x24" $<TARGET_FILE:varsim> --smoke-test snakeboard --frames 300
                 --autopilot -4,0 --hide-ui --screenshot ${CMAKE_CURRENT_BINARY_DIR}/out/autopilot_snakeboard.png)
set_tests_properties(app_autopilot_snakeboard PROPERTIES TIMEOUT 120 PASS_REGULAR_EXPRESSION
                     "autopilot: goal \\(-4, 0\\) m, 0\\.[0-4][0-9][0-9] m away at t = 5 s, impacts 0, 50 re-plans")
