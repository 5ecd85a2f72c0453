args: plan --model 405b --ttft 100ms --tpot 5ms --rate 5 --system aws-p5 --emit vllm
exit: 3
