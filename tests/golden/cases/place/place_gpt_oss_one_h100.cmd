args: place --model gpt-oss-120b --gpu h100 --gpus 1 --explain
exit: 0
