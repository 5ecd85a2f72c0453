args: coldstart --model 70b --gpus 4 --from page-cache --loader vllm-default --budget 5 --json
exit: 3
