args: plan --model 70b --ttft 2s --tpot 50ms --rate 5 --disaggregate --emit vllm
exit: 2
