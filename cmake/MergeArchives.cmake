# cmake -DAR=ar -DMRI=script.mri -P MergeArchives.cmake: runs `ar -M` on an MRI script (src/CMakeLists.txt writes
# it) to merge static libraries into one archive, without a shell in between.
execute_process(COMMAND "${AR}" -M INPUT_FILE "${MRI}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${AR} -M < ${MRI} failed: ${rc}")
endif()
