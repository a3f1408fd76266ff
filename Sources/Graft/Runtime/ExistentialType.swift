/// Whether `type` is an existential: `any P`, `any P & Q`, `any P<T>`, `Any`, `AnyObject`.
///
/// The instances of an existential type are of other, dynamic types, which the registered type
/// cannot tell: a registration made for one asks each new instance whether it is disposable
/// (see `ContainerBuilder+ProtocolDisposal.swift`). Every other type decides while registering,
/// from its static conformances.
///
/// It reads the type's metadata kind: one load and two compares, with no call into the runtime,
/// no conformance lookup and no allocation, so every one of 30,000 registrations can afford it.
///
/// Sound because: a metatype value is a pointer to the type's metadata, which the runtime keeps
/// for the life of the process, and every metadata record begins with one pointer-sized word,
/// its kind (`TargetMetadata::Kind` in the Swift ABI, stable on every platform). For a class
/// that word is `0` or, on Apple platforms, an Objective-C isa pointer, neither of which equals
/// the two kinds compared here; the runtime's own `swift_getMetadataKind` reads the same word.
@usableFromInline
func isExistentialType(_ type: any Any.Type) -> Bool {
    let kind = unsafeBitCast(type, to: UnsafeRawPointer.self).load(as: UInt.self)
    return kind == existentialKind || kind == extendedExistentialKind
}

/// `MetadataKind::Existential` (`any P`, compositions, `Any`, `AnyObject`) in the Swift ABI
/// (`swift/ABI/MetadataKind.def`: 3 | non-heap | runtime-private).
private let existentialKind: UInt = 0x303
/// `MetadataKind::ExtendedExistential`: an existential with constraints (`any P<Int>`).
private let extendedExistentialKind: UInt = 0x307
