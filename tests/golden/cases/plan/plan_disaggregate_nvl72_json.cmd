args: plan --model deepseek-r1 --input 8192 --output 1024 --ttft 2s --tpot 30ms --rate 40 --disaggregate --system gb200-nvl72 --max-nodes 2 --json
exit: 0
