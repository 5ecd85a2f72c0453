args: coldstart --model gpt-oss-120b --gpus 1 --json
exit: 0
