# Voila's configuration for `make app` (the classroom page), loaded from this folder.
#
# Voila serves on 127.0.0.1 only, but a web page elsewhere can still reach it by DNS rebinding
# (its own host name made to point at 127.0.0.1): the server then sees that foreign name in
# the Host header. Jupyter's own check refuses any Host but the local names; Voila turns it
# off, so it is turned back on here. And each page opened starts a kernel (about 60 MB), so
# the number of kernels alive at once is capped: a page opened beyond it is refused (503)
# until an idle one is shut down (APP_IDLE in the Makefile).
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado import web
from traitlets import Integer

c = get_config()  # noqa: F821 - defined by traitlets when it loads a config file

c.Voila.tornado_settings = {"allow_remote_access": False,
                            "local_hostnames": ["localhost"]}


class CappedKernelManager(AsyncMappingKernelManager):
    """At most ``max_kernels`` kernels at once; one more is refused with 503."""

    max_kernels = Integer(12, config=True, help="the most kernels alive at once")

    async def start_kernel(self, *args, **kwargs):
        if kwargs.get("kernel_id") is None and len(self.list_kernel_ids()) >= self.max_kernels:
            raise web.HTTPError(503, f"the classroom page runs at most {self.max_kernels} "
                                "pages at once; close one, or try again in a few minutes")
        return await super().start_kernel(*args, **kwargs)


c.VoilaConfiguration.multi_kernel_manager_class = CappedKernelManager
