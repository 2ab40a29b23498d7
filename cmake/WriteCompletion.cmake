# cmake -DMIGSIM=<binary> -DOUTPUT=<file> -P this file
#
# Writes the bash completion script `migsim completion bash` prints (from the binary's own
# command-line definition) into OUTPUT.
get_filename_component(dir ${OUTPUT} DIRECTORY)
file(MAKE_DIRECTORY ${dir})
execute_process(COMMAND ${MIGSIM} completion bash OUTPUT_FILE ${OUTPUT}.new
                RESULT_VARIABLE failed)
if(failed)
  file(REMOVE ${OUTPUT}.new)
  message(FATAL_ERROR "'${MIGSIM} completion bash' failed: ${failed}")
endif()
file(RENAME ${OUTPUT}.new ${OUTPUT})
