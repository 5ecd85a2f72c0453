args: coldstart --model 70b --loader vllm-fast
exit: 2
