# Extra core test sources (target_sources(core_tests PRIVATE ...)).
