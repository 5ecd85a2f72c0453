args: coldstart --model 70b --gpus 4 --from page-cache --loader vllm-default
exit: 0
