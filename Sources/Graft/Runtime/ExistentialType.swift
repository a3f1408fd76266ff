/// Whether `type` is an existential: `any P`, `any P & Q`, `any P<T>`, `Any`, `AnyObject`.
///
/// The instances of an existential type are of other, dynamic types, which the registered type
/// cannot tell: a registration made for one asks each new instance whether it is disposable
/// (see `ContainerBuilder+ProtocolDisposal.swift`). Every other type decides while registering,
/// from its static conformances.
///
/// One call into the Swift runtime that reads the type's metadata kind: no conformance lookup,
/// no allocation, no type metadata made; cheap enough for every registration of 30,000.
@usableFromInline
func isExistentialType(_ type: any Any.Type) -> Bool {
    let kind = metadataKind(of: type)
    return kind == existentialKind || kind == extendedExistentialKind
}

/// `MetadataKind::Existential` (`any P`, compositions, `Any`, `AnyObject`) in the Swift ABI
/// (`swift/ABI/MetadataKind.def`: 3 | non-heap | runtime-private).
private let existentialKind: UInt32 = 0x303
/// `MetadataKind::ExtendedExistential`: an existential with constraints (`any P<Int>`).
private let extendedExistentialKind: UInt32 = 0x307

/// The Swift runtime's `swift_getMetadataKind`, which the standard library itself binds the
/// same way (`_metadataKind` in ReflectionMirror.swift).
///
/// Sound because: the function is exported by the runtime on every platform Swift supports
/// and is part of its stable ABI; it takes one metadata pointer (what a thick metatype is)
/// and returns the 32-bit `MetadataKind`, which it reads from metadata that every metatype
/// has (on Apple platforms it maps an Objective-C isa pointer to `Class`). It reads only and
/// keeps nothing.
@_silgen_name("swift_getMetadataKind")
private func metadataKind(of type: any Any.Type) -> UInt32
