args: validate --serving serving/vllm_llama33_70b_tp8_a100_qps_inf.json --model 70b --system aws-p4d --tp 8 --spread 1 --lengths lognormal --engine vllm-v0
exit: 0
