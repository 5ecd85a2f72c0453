args: place --model gpt-oss-120b --gpu h100 --gpus 1 --phase decode --engine trtllm --json
exit: 0
