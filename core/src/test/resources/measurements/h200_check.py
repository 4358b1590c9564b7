# Measures ResNet-50 training, GPT-2-medium training, Llama-2-7B eager decoding and LoRA fine-tuning with synthetic
# data and random weights on one GPU, for measurements/h200.tsv. Run: PYTHONUNBUFFERED=1 python3 h200_check.py OUT_DIR
# (written compactly: it travelled to the GPU machine inside a 2,000-character command). Results go to OUT_DIR/r.json:
# ips/tps = images or tokens per second, sps = seconds per step, alloc = torch.cuda.max_memory_allocated().
import json,os,sys,time,torch as T
O=sys.argv[1];R={"torch":T.__version__};C="cuda";F=T.nn.functional
def rec(n,**k):
 R[n]=k;print(n,k,flush=True);json.dump(R,open(O+"/r.json","w"))
def tm(f,w,n):
 for _ in range(w):f()
 T.cuda.synchronize();T.cuda.reset_peak_memory_stats();t=time.perf_counter()
 for _ in range(n):f()
 T.cuda.synchronize();return (time.perf_counter()-t)/n
def rs():
 T.cuda.synchronize();T.cuda.empty_cache();T.cuda.reset_peak_memory_stats()
M=lambda:T.cuda.max_memory_allocated()
import torchvision
T.backends.cudnn.benchmark=True
m=torchvision.models.resnet50().to(C).to(memory_format=T.channels_last)
o=T.optim.SGD(m.parameters(),lr=.1,momentum=.9);g=T.amp.GradScaler()
x=T.randn(256,3,224,224,device=C).to(memory_format=T.channels_last);y=T.randint(0,1000,(256,),device=C)
def s():
 o.zero_grad(set_to_none=True)
 with T.autocast(C,dtype=T.float16):l=F.cross_entropy(m(x),y)
 g.scale(l).backward();g.step(o);g.update()
t=tm(s,15,40);rec("rn50",ips=256/t,alloc=M(),res=T.cuda.memory_reserved())
del m,o,x,y;rs()
from transformers import GPT2Config as GC,GPT2LMHeadModel as GM,LlamaConfig as LC,LlamaForCausalLM as LM
m=GM(GC(n_layer=24,n_embd=1024,n_head=16,vocab_size=50257,n_positions=1024,attn_implementation="sdpa",attn_pdrop=0.0)).to(C)
o=T.optim.AdamW(m.parameters(),lr=1e-4);i=T.randint(0,50257,(8,1024),device=C)
def s():
 o.zero_grad(set_to_none=True)
 with T.autocast(C,dtype=T.bfloat16):l=m(input_ids=i,labels=i).loss
 l.backward();o.step()
t=tm(s,5,20);rec("gpt2m",tps=8192/t,alloc=M(),np=sum(p.numel() for p in m.parameters()))
del m,o,i;rs()
with T.device(C):
 T.set_default_dtype(T.bfloat16);b=LM(LC(hidden_size=4096,intermediate_size=11008,num_hidden_layers=32,num_attention_heads=32,num_key_value_heads=32,vocab_size=32000,attn_implementation="sdpa"));T.set_default_dtype(T.float32)
b.eval();rs();p=T.randint(0,32000,(1,16),device=C)
with T.no_grad():
 b.generate(p,max_new_tokens=8,min_new_tokens=8,do_sample=False);T.cuda.synchronize();T.cuda.reset_peak_memory_stats();t=time.perf_counter()
 b.generate(p,max_new_tokens=50,min_new_tokens=50,do_sample=False);T.cuda.synchronize()
rec("dec",tps=50/(time.perf_counter()-t),alloc=M())
rs()
from peft import LoraConfig,get_peft_model
m=get_peft_model(b,LoraConfig(r=8,lora_alpha=16,lora_dropout=0.05,target_modules=["q_proj","v_proj"]));m.train()
q=[p for p in m.parameters() if p.requires_grad];o=T.optim.AdamW(q,lr=1e-4);i=T.randint(0,32000,(1,1024),device=C)
def s():
 o.zero_grad(set_to_none=True);m(input_ids=i,labels=i).loss.backward();o.step()
t=tm(s,3,10);rec("lora",sps=t,alloc=M(),np=sum(p.numel() for p in q),dt=str(q[0].dtype))
